// expect-clean
// A helper that counts a block's work into a `__shared__` scalar passed by
// reference, and returns it after its own __syncthreads(): every thread reads
// the count the first warp wrote, after the barrier.
__device__ int block_count(const unsigned* __restrict__ masks, int& total) {
  if (threadIdx.x < 32) {
    int c = __popc(masks[blockIdx.x * 32 + threadIdx.x]);
    for (int d = 16; d > 0; d >>= 1) c += __shfl_down_sync(~0u, c, d);
    if (threadIdx.x == 0) total = c;
  }
  __syncthreads();
  return total;
}

__global__ void compact_count(const unsigned* __restrict__ masks, int* __restrict__ out) {
  __shared__ int count;
  const int n = block_count(masks, count);
  if ((int)threadIdx.x < n) out[blockIdx.x * blockDim.x + threadIdx.x] = n;
}

void run_compact_count(const unsigned* masks, int* out, int blocks) {
  compact_count<<<blocks, 256>>>(masks, out);
}
