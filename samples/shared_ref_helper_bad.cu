// The helper of shared_ref_helper_good.cu without its barrier: threads of the
// other warps read the count before the first warp has written it.
__device__ int block_count(const unsigned* __restrict__ masks, int& total) {
  if (threadIdx.x < 32) {
    int c = __popc(masks[blockIdx.x * 32 + threadIdx.x]);
    for (int d = 16; d > 0; d >>= 1) c += __shfl_down_sync(~0u, c, d);
    if (threadIdx.x == 0) total = c;
  }
  return total;  // expect: CL501
}

__global__ void compact_count(const unsigned* __restrict__ masks, int* __restrict__ out) {
  __shared__ int count;
  const int n = block_count(masks, count);
  if ((int)threadIdx.x < n) out[blockIdx.x * blockDim.x + threadIdx.x] = n;
}

void run_compact_count(const unsigned* masks, int* out, int blocks) {
  compact_count<<<blocks, 256>>>(masks, out);
}
