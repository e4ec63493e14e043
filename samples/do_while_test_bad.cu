// The same search with the barrier that closes the loop's body left out: thread 0 stores the flag
// in the body and every thread reads it in the loop's test right after, with nothing between.
__global__ void find_zero(const int *work, int *found_at, int n)
{
    __shared__ int s_done;
    int t = threadIdx.x;
    int pass = 0;
    do {
        if (t == 0)
            s_done = work[blockIdx.x * n + pass] == 0;
        pass++;
    } while (s_done == 0 && pass < n);      // expect: CL501
    if (t == 0)
        found_at[blockIdx.x] = pass;
}

void run_find_zero(const int *work, int *found_at, int blocks, int n)
{
    find_zero<<<blocks, 256>>>(work, found_at, n);
}
