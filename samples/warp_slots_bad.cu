// llm.c's backward softmax, reduced: warp 0 zeroes the 32 per-warp slots while the other warps
// already store their sums into theirs. cg::reduce orders the lanes of one warp, not the warps:
// warp 0's lane k can zero slot k after warp k wrote it.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void row_total(float* out, const float* in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float slots[32];
  if (warp.meta_group_rank() == 0) slots[warp.thread_rank()] = 0.0f;
  float v = in[blockIdx.x * 256 + block.thread_rank()];
  slots[warp.meta_group_rank()] = cg::reduce(warp, v, cg::plus<float>());  // expect: CL501
  block.sync();
  float total = cg::reduce(warp, slots[warp.thread_rank()], cg::plus<float>());
  if (block.thread_rank() == 0) out[blockIdx.x] = total;
}

void run(float* out, const float* in) { row_total<<<1024, 256>>>(out, in); }
