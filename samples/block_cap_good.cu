// expect-clean
// One block column per token: the block is (1, min(dim, 1024)), so a warp's lanes differ in
// threadIdx.y and write neighbouring words of the token's row. The launcher clamps the block to
// 1024; past that every launch has that shape, and it is the one analysed.
__global__ void fill_rows(unsigned *mask, int tokens, int dim)
{
    int token = blockIdx.x * blockDim.x + threadIdx.x;
    if (token >= tokens)
        return;
    for (int i = token * dim + threadIdx.y; i < (token + 1) * dim; i += blockDim.y)
        mask[i] = 0x01010101u;
}

void run_fill_rows(unsigned *mask, int tokens, int dim)
{
    int threads = dim < 1024 ? dim : 1024;
    fill_rows<<<tokens, dim3(1, threads)>>>(mask, tokens, dim);
}
