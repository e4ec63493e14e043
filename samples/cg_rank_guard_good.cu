// expect-clean
// Cooperative groups: the block is passed to a helper as `const cg::thread_block&`, one lane per
// warp stores the warp's sum (`tile.thread_rank() == 0`), and the first warp
// (`tile.meta_group_rank() == 0`) reduces the warp sums.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__device__ void block_reduce(float* warp_sums, float v, float* out, const cg::thread_block& cta) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cta);
  float s = cg::reduce(tile, v, cg::plus<float>());
  if (tile.thread_rank() == 0) warp_sums[tile.meta_group_rank()] = s;
  cg::sync(cta);
  if (tile.meta_group_rank() == 0) {
    float t = cg::reduce(tile, warp_sums[tile.thread_rank()], cg::plus<float>());
    if (cta.thread_rank() == 0) out[blockIdx.x] = t;
  }
}

__global__ void sum_rows(const float* in, float* out) {
  __shared__ float warp_sums[32];
  cg::thread_block cta = cg::this_thread_block();
  block_reduce(warp_sums, in[blockIdx.x * 1024 + cta.thread_rank()], out, cta);
}

void run(const float* in, float* out) { sum_rows<<<512, 1024>>>(in, out); }
