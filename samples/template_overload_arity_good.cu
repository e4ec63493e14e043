// Two kernel templates share a name and differ in their parameters: `fill<CTA, WARP>` and
// `fill<NPR, CTA, WARP>`. Each launch's template argument list says which one it runs, so each
// kernel is read with its own CTA (256), and each block's tile holds one slot per thread.
template <int CTA, int WARP>
__global__ void fill(int *out)
{
    __shared__ int s[CTA];
    s[threadIdx.x] = WARP;
    __syncthreads();
    out[blockIdx.x * CTA + threadIdx.x] = s[CTA - 1 - threadIdx.x];
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
// expect-clean
