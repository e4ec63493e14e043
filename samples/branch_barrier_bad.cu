// The same reduction, its barrier chosen the other way round: `__syncwarp()` while the active half
// still spans several warps. At the first iterations thread 0 adds what thread 64 stored at the end
// of the iteration before with nothing but a warp barrier between them.
__global__ void block_sum(const float *in, float *out, int n)
{
    extern __shared__ float sm[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if ((int)threadIdx.x < half)
            sm[threadIdx.x] += sm[threadIdx.x + half];       // expect: CL501
        if (half > warpSize / 2)
            __syncwarp();
        else
            __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = sm[0];
}

void launch(const float *in, float *out, int n)
{
    block_sum<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}
