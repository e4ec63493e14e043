// A block reduction helper with its own `__shared__` array, called twice in a row (a mean and a
// sum of squares). The array is one per block however often the helper runs: a warp's leader
// stores its second partial sum into the slot that warp 0 may still be reading from the first call.
__inline__ __device__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    return v;
}

__inline__ __device__ float block_sum(float v)
{
    static __shared__ float partial[32];
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x / 32;
    v = warp_sum(v);
    if (lane == 0)
        partial[warp] = v;
    __syncthreads();
    v = (threadIdx.x < blockDim.x / 32) ? partial[lane] : 0.0f;  // expect: CL501
    if (warp == 0)
        v = warp_sum(v);
    return v;
}

__global__ void row_moments(const float* x, float* mean, float* meansq, int cols)
{
    float s = 0.0f, s2 = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        float v = x[blockIdx.x * cols + c];
        s += v;
        s2 += v * v;
    }
    s = block_sum(s);
    s2 = block_sum(s2);
    if (threadIdx.x == 0) {
        mean[blockIdx.x] = s / cols;
        meansq[blockIdx.x] = s2 / cols;
    }
}

void row_moments_launch(const float* x, float* mean, float* meansq, int rows, int cols)
{
    row_moments<<<rows, 256>>>(x, mean, meansq, cols);
}
