// A FIR filter whose taps a block stages into shared memory, written for filters of at most 4x4
// taps. The host launches the 4x4 instance whatever the filter's size: nothing bounds `kernel_w`, and
// for a wider filter the block's 4x4 taps lie in rows `kernel_w` apart, a run of 4 taps each, one or
// two sectors per row for 64 bytes of data.
struct FirParams {
    int kernel_h;
    int kernel_w;
    int up;
    int n;
};

template <int UP, int KH, int KW>
__global__ void fir(float* out, const float* in, const float* taps, const FirParams p)
{
    __shared__ float sk[KH][KW];
    for (int tap = threadIdx.x; tap < KH * KW; tap += blockDim.x) {
        int ky = tap / KW, kx = tap - ky * KW;
        float v = 0.0f;
        if (kx < p.kernel_w && ky < p.kernel_h)
            v = taps[(p.kernel_h - 1 - ky) * p.kernel_w + (p.kernel_w - 1 - kx)];  // expect: CL101
        sk[ky][kx] = v;
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n)
        out[i] = in[i] * sk[0][0] * UP;
}

void filter(float* out, const float* in, const float* taps, int kh, int kw, int up, int n)
{
    FirParams p;
    p.kernel_h = kh;
    p.kernel_w = kw;
    p.up = up;
    p.n = n;
    fir<1, 4, 4><<<(n + 255) / 256, 256>>>(out, in, taps, p);
}
