// expect-clean
// A row's running carry, added to by the block's last thread between two barriers. The block size is
// a namespace-scope constant whose type is a typedef of an integer (`const u32 THREADS = 256;`).
typedef unsigned int u32;
const u32 THREADS = 256;

__global__ void rowSum(const float *src, float *dst, u32 width)
{
    __shared__ float carry;
    carry = 0.f;
    __syncthreads();
    for (u32 off = 0; off < width; off += THREADS) {
        u32 i = off + threadIdx.x;
        float v = i < width ? src[blockIdx.x * width + i] : 0.f;
        if (i < width) dst[blockIdx.x * width + i] = carry + v;
        __syncthreads();
        if (threadIdx.x == THREADS - 1) carry += v;   // one writer, barriers on both sides
        __syncthreads();
    }
}

void row_sum_launch(const float *s, float *d, int rows, u32 width)
{
    rowSum<<<rows, THREADS>>>(s, d, width);
}
