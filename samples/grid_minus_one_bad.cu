// The kernel of grid_minus_one_good.cu without its guard: wherever n is not a
// multiple of 8 the last block's extra threads read and write past n.
__global__ void scale(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 2.0f * in[i];  // expect: CL202
}

void run_scale(const float* in, float* out, int n) { scale<<<(n - 1) / 8 + 1, 8>>>(in, out, n); }
