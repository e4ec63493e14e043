// The same counters as plain integers: every fourth thread adds to the shared count without an
// atomic, and each block's leader adds to the global total without one: updates are lost within a
// block (two warps meet at `hits`) and between blocks.
__global__ void count_hits(const int *keys, int n, unsigned *total)
{
    __shared__ unsigned hits;
    if (threadIdx.x == 0)
        hits = 0;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && (keys[i] & 1) && threadIdx.x % 4 == 0)
        hits++;                 // expect: CL501
    __syncthreads();
    if (threadIdx.x == 0)
        *total += hits;         // expect: CL302
}

void run(const int *keys, int n, unsigned *total)
{
    count_hits<<<(n + 255) / 256, 256>>>(keys, n, total);
}
