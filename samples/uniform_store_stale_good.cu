// expect-clean
// Every thread marks its own slot with the same flag and then reads that slot back: whichever
// store it meets holds the flag. One value stored by all threads, read where the reader stored it.
__global__ void mark_own(int *out, int n)
{
    __shared__ int seen[256];
    seen[threadIdx.x] = 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = seen[threadIdx.x];
}

void launch(int *out, int n)
{
    mark_own<<<(n + 255) / 256, 256>>>(out, n);
}
