// One thread per (batch, camera, point) triple, each writing its 3x3 record
// (9 floats a lane: more sectors than ideal, CL101). `idx * 9` is computed in
// 32 bits: it passes 2^31 - 1 only once B * C * N exceeds 238 million triples,
// and nothing here says the program runs such sizes. The grid is sized by the
// open B * C * N, so the overflow is a condition on values nobody gives, not a
// finding (give --param B=... to check one).
__global__ void write_records(unsigned B, unsigned C, unsigned N, float* __restrict__ out) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * C * N) return;
  for (unsigned k = 0; k < 9; ++k) out[idx * 9 + k] = 1.0f;  // expect: CL101
}

void run_write_records(unsigned B, unsigned C, unsigned N, float* out) {
  long long n = (long long)B * C * N;
  dim3 threads(256);
  dim3 grid((n + threads.x - 1) / threads.x);
  write_records<<<grid, threads>>>(B, C, N, out);
}
