// The same rows with the block laid along x, (min(tokens, 1024), 1): a warp's lanes are tokens, a
// row of dim words apart, and each write touches a sector of its own.
__global__ void fill_rows(unsigned *mask, int tokens, int dim)
{
    int token = blockIdx.x * blockDim.x + threadIdx.x;
    if (token >= tokens)
        return;
    for (int i = token * dim + threadIdx.y; i < (token + 1) * dim; i += blockDim.y)
        mask[i] = 0x01010101u;      // expect: CL101
}

void run_fill_rows(unsigned *mask, int tokens, int dim)
{
    int threads = tokens < 1024 ? tokens : 1024;
    fill_rows<<<(tokens + threads - 1) / threads, dim3(threads, 1)>>>(mask, tokens, dim);
}
