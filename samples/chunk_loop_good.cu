// expect-clean
// Each block sweeps its own chunk of 8192 elements with a block-stride loop,
// the last chunk cut short by `min(..., n)`. Where n is small the loop runs a
// trip or two, but for every n past the chunk it covers all 8192: the chunk
// stride of the grid matches what the block reads.
#define CHUNK 8192
#define THREADS 768
__global__ void __launch_bounds__(THREADS) scale_chunks(const float* __restrict__ in, float* __restrict__ out, int n) {
  const int chunk_start = blockIdx.x * CHUNK;
  const int chunk_end = min(chunk_start + CHUNK, n);
  for (int i = chunk_start + threadIdx.x; i < chunk_end; i += blockDim.x) out[i] = 2.0f * in[i];
}

void run_scale_chunks(const float* in, float* out, int n) {
  scale_chunks<<<(n + CHUNK - 1) / CHUNK, THREADS>>>(in, out, n);
}
