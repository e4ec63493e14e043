// expect-clean
// Each block counts its elements above a threshold with `__syncthreads_count`, which every thread
// of the block gets alike; the one thread whose index is min(count, 255) keeps the count in a
// shared slot and copies it out. Only that thread stores and reads the slot: no other thread of
// the block meets it there.
#define THREADS 256

__global__ void count_above(const float* __restrict__ x, int* __restrict__ counts, float t, int n)
{
    __shared__ int slot;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int count = __syncthreads_count(i < n && x[i] > t);
    if (threadIdx.x == min(count, THREADS - 1)) {
        slot = count;
        counts[blockIdx.x] = slot;
    }
}

void run_count_above(const float* x, int* counts, float t, int n)
{
    count_above<<<(n + THREADS - 1) / THREADS, THREADS>>>(x, counts, t, n);
}
