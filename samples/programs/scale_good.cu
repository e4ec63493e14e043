// expect-clean
// A 1-D kernel launched with 256 threads; its tile holds 256 floats.
__device__ float load_row(const float* in, int i) { return in[i]; }

__global__ void kernel1(float* out, const float* in, int n) {
  __shared__ float buf[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  buf[threadIdx.x] = i < n ? load_row(in, i) : 0.0f;
  __syncthreads();
  if (i < n) out[i] = 2.0f * buf[threadIdx.x];
}

void run(float* out, const float* in) {
  const int n = 1 << 20;
  kernel1<<<n / 256, 256>>>(out, in, n);
}
