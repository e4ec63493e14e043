// The kernel of overflow_open_grid_good.cu at sizes the program gives: 4 batches
// of 8 cameras over 10 million points is 320 million records, and `idx * 9`
// passes 2^31 - 1 in 32-bit `unsigned` arithmetic for the last 80 million.
__global__ void write_records(unsigned B, unsigned C, unsigned N, float* __restrict__ out) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * C * N) return;
  for (unsigned k = 0; k < 9; ++k) out[idx * 9 + k] = 1.0f;  // expect: CL101, CL203
}

void run_write_records(float* out) {
  const unsigned B = 4, C = 8, N = 10000000;
  long long n = (long long)B * C * N;
  dim3 threads(256);
  dim3 grid((n + threads.x - 1) / threads.x);
  write_records<<<grid, threads>>>(B, C, N, out);
}
