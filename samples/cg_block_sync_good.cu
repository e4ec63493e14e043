// expect-clean
// Block sum written with cooperative groups: the block's sync() is the barrier,
// as `cg::sync(block)`, `block.sync()` and `cg::this_thread_block().sync()`.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
#define THREADS 256

__global__ void block_sum_cg(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  cg::thread_block block = cg::this_thread_block();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[threadIdx.x] = v;
  cg::sync(block);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      sdata[threadIdx.x] += sdata[threadIdx.x + s];
    block.sync();
  }
  float total = sdata[0];
  cg::this_thread_block().sync();
  sdata[threadIdx.x] = v / total;
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void run_block_sum_cg(const float* in, float* out, int n) {
  block_sum_cg<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
