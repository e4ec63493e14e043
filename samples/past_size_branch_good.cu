// expect-clean
// One thread per element, and two more threads write the end markers a suffix sort reads past
// the last element. The threads past n run only the branch written for them (`i == n`,
// `i == n + 1`): the buffer has those two places (its caller allocates n + 2), and nothing says
// otherwise; the threads the grid's rounding adds past n + 1 run nothing.
__global__ void build_keys(unsigned *keys, const unsigned *rank, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        keys[i] = rank[i] + 1;
    else if (i == n || i == n + 1)
        keys[i] = 0;                // the two end markers
}

void run_build_keys(unsigned *keys, const unsigned *rank, int n)
{
    build_keys<<<(n + 255) / 256, 256>>>(keys, rank, n);
}
