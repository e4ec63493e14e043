// expect-clean
// Magnitude of interleaved complex samples read as one float2 per thread: the
// warp reads 256 contiguous bytes and uses all of them.

__global__ void complex_abs(const float* __restrict__ iq, float* __restrict__ mag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float2 z = reinterpret_cast<const float2*>(iq)[i];
    mag[i] = sqrtf(z.x * z.x + z.y * z.y);
  }
}

void run_complex_abs(const float* iq, float* mag, int n) {
  complex_abs<<<(n + 255) / 256, 256>>>(iq, mag, n);
}
