// The count of block_count_leader_good.cu kept by one thread and written out by every thread of the
// block with no barrier between: the other threads read the slot before or after that thread stores it.
#define THREADS 256

__global__ void mark_count(const float* __restrict__ x, int* __restrict__ marks, float t, int n)
{
    __shared__ int slot;
    int i = blockIdx.x * THREADS + threadIdx.x;
    int count = __syncthreads_count(i < n && x[i] > t);
    if (threadIdx.x == min(count, THREADS - 1))
        slot = count;
    if (i < n)
        marks[i] = slot;  // expect: CL501
}

void run_mark_count(const float* x, int* marks, float t, int n)
{
    mark_count<<<(n + THREADS - 1) / THREADS, THREADS>>>(x, marks, t, n);
}
