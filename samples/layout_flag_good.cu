// One output per block: y[h] = W-row-or-column h times x. A kernel argument says how W is stored:
// [L][H] (leading dimension H) or, transposed, [H][L] (leading dimension L). The two arms of
// `if (transposed)` read the two layouts, and one run takes one of them: two pitches are what the
// flag means, not a wrong one. The [L][H] arm reads a column, H floats apart (a real cost).
__global__ void gemv(const float *x, const float *W, float *y, bool transposed, int L, int H)
{
    int h = blockIdx.x;
    float acc = 0.f;
    if (!transposed) {
        for (int k = threadIdx.x; k < L; k += blockDim.x)
            acc += x[k] * W[k * H + h];  // expect: CL101
    } else {
        const float *w = W + h * L;
        for (int k = threadIdx.x; k < L; k += blockDim.x)
            acc += x[k] * w[k];
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
