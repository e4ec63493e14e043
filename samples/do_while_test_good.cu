// expect-clean
// A block-wide search that repeats while no thread found work. Thread 0 clears the flags before
// the loop and again at the top of each pass; the barrier that opens the loop's body, and the one
// that closes it, separate those stores from the reads of the flags in the loop's test, which a
// do-while makes after its body.
__global__ void find_zero(const int *work, int *found_at, int n)
{
    __shared__ int s_done;
    __shared__ int s_where;
    int t = threadIdx.x;
    if (t == 0)
        s_done = 0;
    do {
        __syncthreads();
        if (t == 0)
            s_where = -1;
        __syncthreads();
        for (int j = t; j < n; j += blockDim.x)
            if (work[blockIdx.x * n + j] == 0) {
                s_where = j;
                s_done = 1;
            }
        __syncthreads();
    } while (!s_done);
    if (t == 0)
        found_at[blockIdx.x] = s_where;
}

void run_find_zero(const int *work, int *found_at, int blocks, int n)
{
    find_zero<<<blocks, 256>>>(work, found_at, n);
}
