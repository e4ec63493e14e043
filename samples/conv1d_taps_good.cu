// expect-clean
// 1D convolution that caches its 16 filter taps in shared memory: only the
// first FILTER threads load a tap, one writer per shared element.

#define FILTER 16
#define RADIUS (FILTER / 2)

// cudalint: param n=1048576
__global__ void conv1d(const float* __restrict__ in, const float* __restrict__ filter,
                       float* __restrict__ out, int n) {
  __shared__ float taps[FILTER];
  if (threadIdx.x < FILTER) taps[threadIdx.x] = filter[threadIdx.x];
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
