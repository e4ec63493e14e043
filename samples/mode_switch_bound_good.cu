// A FIR filter whose taps a block stages into shared memory, written for filters of at most 4x4 or
// 2x2 taps. The host picks the instance the way many upsampling libraries do: a `mode` set under
// tests of the filter's size, then a `switch (mode)`. `case 1` runs only where its test held
// (`kernel_w <= 4`) and the later one did not, so the filter's rows are at most 4 taps: each
// block reads one short run of taps, as few sectors as they fill.
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
            v = taps[(p.kernel_h - 1 - ky) * p.kernel_w + (p.kernel_w - 1 - kx)];
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
    int mode = -1;
    if (p.up == 1 && p.kernel_h <= 4 && p.kernel_w <= 4)
        mode = 1;
    if (p.up == 1 && p.kernel_h <= 2 && p.kernel_w <= 2)
        mode = 2;
    switch (mode) {
    case 1:
        fir<1, 4, 4><<<(n + 255) / 256, 256>>>(out, in, taps, p);
        break;
    case 2:
        fir<1, 2, 2><<<(n + 255) / 256, 256>>>(out, in, taps, p);
        break;
    }
}
// expect-clean
