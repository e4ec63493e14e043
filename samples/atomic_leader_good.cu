// expect-clean
// Block-local compaction. Each wanted item takes its slot with a shared
// atomicAdd; then the first thread to arrive at the second atomic (exactly
// one: an atomic hands every thread a value of its own) publishes the block's
// count and turns `s_total` into the block's base, reading and rewriting it
// alone, between two barriers. Each item's position goes to `pos`.
__global__ void append(const int* __restrict__ flags, int* __restrict__ counts, int* __restrict__ pos, int n) {
  __shared__ int s_total, s_arrived;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    s_total = 0;
    s_arrived = 0;
  }
  __syncthreads();
  int slot = -1;
  if (i < n && flags[i]) slot = atomicAdd(&s_total, 1);
  __syncthreads();
  if (atomicAdd(&s_arrived, 1) == 0) {
    counts[blockIdx.x] = s_total;
    s_total = blockIdx.x * blockDim.x;
  }
  __syncthreads();
  if (i < n) pos[i] = s_total + slot;
}

void run_append(const int* flags, int* counts, int* pos, int n) {
  append<<<(n + 255) / 256, 256>>>(flags, counts, pos, n);
}
