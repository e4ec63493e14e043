// expect-clean
// Per-block hit counters kept as libcu++ atomics in shared memory: `hits++` by the leader of each
// tile is an atomic fetch-add, so the tiles need no barrier between their increments, and the one
// store per block into the global total is an atomic add too (`*total += hits`).
#include <cuda/atomic>

using block_counter = cuda::atomic<unsigned, cuda::thread_scope_block>;
using device_counter = cuda::atomic<unsigned, cuda::thread_scope_device>;

__global__ void count_hits(const int *keys, int n, device_counter *total)
{
    __shared__ block_counter hits;
    if (threadIdx.x == 0)
        hits = 0;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (keys[i] & 1) && threadIdx.x % 4 == 0)
        hits++;
    __syncthreads();
    if (threadIdx.x == 0)
        *total += hits;
}

void run(const int *keys, int n, device_counter *total)
{
    count_hits<<<(n + 255) / 256, 256>>>(keys, n, total);
}
