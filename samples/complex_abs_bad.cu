// Magnitude of interleaved complex samples (I, Q, I, Q, ...) read as two
// separate float loads at stride 2: each warp request spans 256 bytes to use
// 128 of them (8 sectors instead of 4).

__global__ void complex_abs(const float* __restrict__ iq, float* __restrict__ mag, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float re = iq[2 * i];  // expect: CL101
    float im = iq[2 * i + 1];  // the same record: counted in the finding above
    mag[i] = sqrtf(re * re + im * im);
  }
}

void run_complex_abs(const float* iq, float* mag, int n) {
  complex_abs<<<(n + 255) / 256, 256>>>(iq, mag, n);
}
