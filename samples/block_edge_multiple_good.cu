// A reduction over groups of `c` values, one block per group: the block is `c` clamped to 256
// threads, and the work `m * c` is a multiple of the block in every branch that launches it (where
// c < 64 the block is c itself; where c > 1024 the host only launches for c a multiple of 1024,
// which 256 divides). The grid has no partial last block, every thread makes the same trips of the
// grid-stride loop, and every thread reaches both barriers.
__global__ void group_sum(int n, const float *in, float *out)
{
    extern __shared__ float cache[];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        cache[threadIdx.x] = in[i];
        __syncthreads();
        if (threadIdx.x == 0) {
            float s = 0.f;
            for (unsigned t = 0; t < blockDim.x; ++t)
                s += cache[t];
            out[i / blockDim.x] = s;
        }
        __syncthreads();
    }
}

void launch(int m, int c, const float *in, float *out)
{
    const int threads = c > 256 ? 256 : c;
    const int n = m * c;
    const int blocks = (n + threads - 1) / threads;
    if (c > 1024) {
        if ((c & 1023) == 0)
            group_sum<<<blocks, threads, threads * sizeof(float)>>>(n, in, out);
    } else if (c < 64) {
        group_sum<<<blocks, threads, threads * sizeof(float)>>>(n, in, out);
    }
}
// expect-clean
