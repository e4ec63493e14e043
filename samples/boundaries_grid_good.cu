// expect-clean
// The n + 1 boundaries of n segments, one thread each: the grid `(n + 128) / 128` is
// ceil((n + 1) / 128) blocks, and `i <= n` lets exactly those n + 1 threads store. The guard and
// the grid say the same size; nothing runs past it.
__global__ void scale_offsets(const int *bounds, long long *offsets, long long n, long long mult)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        offsets[i] = mult * bounds[i];
}

void run_scale_offsets(const int *bounds, long long *offsets, long long n, long long mult)
{
    scale_offsets<<<(n + 128) / 128, 128>>>(bounds, offsets, n, mult);
}
