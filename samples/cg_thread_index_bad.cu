// A neighbour difference written with cooperative groups: every thread stores its value and reads
// the next thread's slot. `tb.thread_index()` is threadIdx, so the read of `buf[t + 1]` is another
// thread's store, and nothing orders the two: the `tb.sync()` that should stand between them is
// missing.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void neighbour_diff(const int* in, int* out)
{
    cg::thread_block tb = cg::this_thread_block();
    __shared__ int buf[513];
    const int t = tb.thread_index().x;
    buf[t] = in[blockIdx.x * 512 + t];
    if (tb.thread_index().x == 0)
        buf[512] = 0;
    out[blockIdx.x * 512 + t] = buf[t + 1] - buf[t];  // expect: CL501
}

void diff(const int* in, int* out, int blocks)
{
    neighbour_diff<<<blocks, 512>>>(in, out);
}
