// The same pair where the two-parameter kernel sizes its tile by the warp: launched as `fill<256,
// 32>`, its 256 threads store past the 32 slots.
template <int CTA, int WARP>
__global__ void fill(int *out)
{
    __shared__ int s[WARP];
    s[threadIdx.x] = WARP;   // expect: CL201
    __syncthreads();
    out[blockIdx.x * CTA + threadIdx.x] = s[WARP - 1 - threadIdx.x % WARP];
}

template <int NPR, int CTA, int WARP>
__global__ void fill(int *out)
{
    __shared__ int s[CTA];
    s[threadIdx.x] = NPR * WARP;
    __syncthreads();
    out[blockIdx.x * CTA + threadIdx.x] = s[CTA - 1 - threadIdx.x];
}

void run(int *out)
{
    const int CTA = 256, WARP = 32;
    fill<8, CTA, WARP><<<64, CTA>>>(out);
    fill<CTA, WARP><<<64, CTA>>>(out);
}
