// expect-clean
// Each thread keeps the indices of its elements in a register array filled
// by a loop (`idx[t] = threadIdx.x + t * blockDim.x`). In iteration i the
// one thread holding element i leads: it publishes its result in a shared
// slot, and every thread reads it after the barrier. cudalint reads
// `idx[t]` as the value the loop stored, so it sees one leader per
// iteration, not any thread.
#define TILES 4

__global__ void lead(const int* keys, int* out, int n)
{
    __shared__ int chosen;
    if (threadIdx.x == 0)
        chosen = -1;
    int idx[TILES];
    for (int t = 0; t < TILES; t++)
        idx[t] = threadIdx.x + t * blockDim.x;
    for (int i = 0; i < n; i++)
    {
        int t = i / blockDim.x;
        if (idx[t] == i)
            chosen = keys[i];
        __syncthreads();
        if (threadIdx.x == 0)
            out[i] = chosen;
        __syncthreads();
    }
}

void run(const int* keys, int* out, int n) { lead<<<1, 128>>>(keys, out, n); }
