// The same product with the layout chosen per block instead of per run (`blockIdx.x % 2`, a slip
// for the flag): one launch reads W with two leading dimensions, and one of them is wrong.
__global__ void gemv(const float *x, const float *W, float *y, bool transposed, int L, int H)
{
    int h = blockIdx.x;
    float acc = 0.f;
    if (blockIdx.x % 2 == 0) {
        for (int k = threadIdx.x; k < L; k += blockDim.x)
            acc += x[k] * W[k * H + h];  // expect: CL101
    } else {
        const float *w = W + h * L;
        for (int k = threadIdx.x; k < L; k += blockDim.x)
            acc += x[k] * w[k];  // expect: CL301
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffff, acc, o);
    if (threadIdx.x == 0)
        y[h] = acc;
}

void run_gemv(const float *x, const float *W, float *y, bool transposed, int L, int H)
{
    gemv<<<H, 32>>>(x, W, y, transposed, L, H);
}
