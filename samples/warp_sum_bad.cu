// Two-level block reduction with a copy-paste slip: lane 0 of every warp
// stores its partial to warp_sums[lane] (always element 0) instead of
// warp_sums[warp]. The 8 warps' lane-0 threads all write the same element and
// the block sum is just whichever warp won.
#define THREADS 256

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ partial, int n) {
  __shared__ float warp_sums[THREADS / 32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = 0.0f;
  if (i < n) v = in[i];
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync(0xffffffff, v, off);
  if (lane == 0) warp_sums[lane] = v;  // expect: CL302
  __syncthreads();
  if (warp == 0) {
    v = 0.0f;
    if (lane < THREADS / 32) v = warp_sums[lane];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffff, v, off);
    if (lane == 0) partial[blockIdx.x] = v;
  }
}

void run_block_sum(const float* in, float* partial, int n) {
  block_sum<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, partial, n);
}
