// The same unrolled reduction without the fold: the grid is halved for two
// blocks' worth of the array a block, but the block reduces only the first
// half of its chunk, and the second half of every chunk is never read.
__global__ void reduce_unroll2(int* g_idata, int* g_odata, unsigned int n)
{
    unsigned int tid = threadIdx.x;
    int* idata = g_idata + blockIdx.x * blockDim.x * 2;
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1)
    {
        if (tid < stride)
            idata[tid] += idata[tid + stride];  // expect: CL301
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
