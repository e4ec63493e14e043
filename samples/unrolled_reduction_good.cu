// expect-clean
// A reduction unrolled by two: each block takes two blocks' worth of the
// array, folds the second half onto the first (`g[idx] += g[idx + blockDim.x]`),
// then reduces the first half in place, by fewer threads at each step. The
// stores and the tree's reads touch only the first half of each chunk, but
// the whole block reads all of it first: nothing is skipped.
__global__ void reduce_unroll2(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    unsigned int idx = blockDim.x * blockIdx.x * 2 + threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x * 2;
    if (idx + blockDim.x < n)
        g_idata[idx] += g_idata[idx + blockDim.x];
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride)
            idata[tid] += idata[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        g_odata[blockIdx.x] = idata[0];
}

void run(int* in, int* out)
{
    unsigned int n = 1 << 24;
    dim3 block(512);
    dim3 grid((n - 1) / block.x + 1);
    reduce_unroll2<<<grid.x / 2, block>>>(in, out, n);
}
