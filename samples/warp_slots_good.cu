// expect-clean
// The same reduction with a barrier between zeroing the per-warp slots and storing into them.
// Within one warp, every lane storing the warp's own cg::reduce result is one value, ordered by
// the collective.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void row_total(float* out, const float* in) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  __shared__ float slots[32];
  if (warp.meta_group_rank() == 0) slots[warp.thread_rank()] = 0.0f;
  float v = in[blockIdx.x * 256 + block.thread_rank()];
  block.sync();
  slots[warp.meta_group_rank()] = cg::reduce(warp, v, cg::plus<float>());
  block.sync();
  float total = cg::reduce(warp, slots[warp.thread_rank()], cg::plus<float>());
  if (block.thread_rank() == 0) out[blockIdx.x] = total;
}

void run(float* out, const float* in) { row_total<<<1024, 256>>>(out, in); }
