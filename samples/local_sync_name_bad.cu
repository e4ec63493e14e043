// The same search synchronising the block with cooperative groups' `sync(block)` under the
// per-thread condition: even threads never reach the barrier the odd ones wait at.
#include <cooperative_groups.h>
using namespace cooperative_groups;

__global__ void scan_marks(const unsigned *marks, unsigned *hits, int n)
{
    thread_block block = this_thread_block();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    bool found = false;
    for (int j = 0; j < 4; ++j) {
        bool hit = marks[j * n + i] == 7u;
        if (!found && (i & 1)) {
            found = hit;
            sync(block);  // expect: CL502
        }
    }
    hits[i] = found ? 1u : 0u;
}

void run_scan_marks(const unsigned *marks, unsigned *hits, int n)
{
    scan_marks<<<(n + 255) / 256, 256>>>(marks, hits, n);
}
