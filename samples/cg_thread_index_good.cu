// A block-wide prefix fix-up written with cooperative groups: every thread stores its count, the
// block waits, and one thread, the one whose `thread_index().x` is 0, folds the total into the
// last slot. `tb.thread_index()` is threadIdx: the guarded statement runs in thread 0 alone, after
// the barrier, so no other thread touches the slot it rewrites.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void fold_counts(const int* counts, int* out, int n)
{
    cg::thread_block tb = cg::this_thread_block();
    __shared__ int buf[512];
    const int t = tb.thread_index().x;
    buf[t] = counts[blockIdx.x * 512 + t];
    tb.sync();
    if (tb.thread_index().x == 0)
        buf[n] = n - buf[n];
    tb.sync();
    out[blockIdx.x * 512 + t] = buf[t];
}

void fold(const int* counts, int* out, int blocks, int n)
{
    fold_counts<<<blocks, 512>>>(counts, out, n);
}
// expect-clean
