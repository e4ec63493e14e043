// Block size as a template parameter, but no bounds check: with n = 1000 the
// last block of the ceil-div grid has 24 threads past the end of both arrays.

template <int BLOCK>
__global__ void scale(float* __restrict__ out, const float* __restrict__ in, float s, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  out[i] = s * in[i];  // expect: CL202
}

// cudalint: param n=1000
void run_scale(float* out, const float* in, float s, int n) {
  scale<256><<<(n + 255) / 256, 256>>>(out, in, s, n);
}
