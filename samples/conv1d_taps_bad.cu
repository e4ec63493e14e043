// 1D convolution that caches its 16 filter taps in shared memory. Every thread
// of the 256-thread block stores taps[threadIdx.x % FILTER], so threads t,
// t + 16, t + 32, ... all write the same shared element (16 writers each).

#define FILTER 16
#define RADIUS (FILTER / 2)

// cudalint: param n=1048576
__global__ void conv1d(const float* __restrict__ in, const float* __restrict__ filter,
                       float* __restrict__ out, int n) {
  __shared__ float taps[FILTER];
  taps[threadIdx.x % FILTER] = filter[threadIdx.x % FILTER];  // expect: CL302
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float acc = 0.0f;
  for (int k = 0; k < FILTER; ++k) {
    int j = i + k - RADIUS;
    if (j >= 0 && j < n) acc += in[j] * taps[k];
  }
  out[i] = acc;
}

void run_conv1d(const float* in, const float* filter, float* out, int n) {
  conv1d<<<(n + 255) / 256, 256>>>(in, filter, out, n);
}
