// The same kernel launched over n elements (`(n + 127) / 128` blocks) with the guard still `i <=
// n`: thread n exists whenever n is no multiple of 128, and stores one past the n elements.
__global__ void scale_offsets(const int *bounds, long long *offsets, long long n, long long mult)
{
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        offsets[i] = mult * bounds[i];  // expect: CL202
}

void run_scale_offsets(const int *bounds, long long *offsets, long long n, long long mult)
{
    scale_offsets<<<(n + 127) / 128, 128>>>(bounds, offsets, n, mult);
}
