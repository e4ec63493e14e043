// expect-clean
// A tree reduction that ends each step with `__syncthreads()` while the active half spans more
// than one warp and `__syncwarp()` after: the condition is the same for the whole block at each
// iteration, so every exchange has the barrier it needs, and thread 0 reads the sum after the
// loop past the warp barrier of the last step.
__global__ void block_sum(const float *in, float *out, int n)
{
    extern __shared__ float sm[];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    sm[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if ((int)threadIdx.x < half)
            sm[threadIdx.x] += sm[threadIdx.x + half];
        if (half > warpSize / 2)
            __syncthreads();
        else
            __syncwarp();
    }
    if (threadIdx.x < 2)
        out[2 * blockIdx.x + threadIdx.x] = sm[threadIdx.x];
}

void launch(const float *in, float *out, int n)
{
    block_sum<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(in, out, n);
}
