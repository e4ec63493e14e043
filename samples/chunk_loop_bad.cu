// The chunked sweep of chunk_loop_good.cu whose loop stops at half the chunk:
// the grid steps 8192 elements a block, each block reads 4096 of them, and the
// other half of every chunk is never scaled.
#define CHUNK 8192
#define THREADS 768
__global__ void __launch_bounds__(THREADS) scale_chunks(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int chunk_start = blockIdx.x * CHUNK;
  const int chunk_end = min(chunk_start + CHUNK / 2, n);
  for (int i = chunk_start + threadIdx.x; i < chunk_end; i += blockDim.x) out[i] = 2.0f * in[i];  // expect: CL301
}

void run_scale_chunks(const float* in, float* out, int n) {
  scale_chunks<<<(n + CHUNK - 1) / CHUNK, THREADS>>>(in, out, n);
}
