// The same reduction where the branch for wide groups launches every c over 1024: the block is
// 256 threads, and `m * c` leaves the last block partly past the end wherever 256 does not divide
// it (c = 1100, m = 1). The threads past the end leave the loop before the barriers the others wait
// at.
__global__ void group_sum(int n, const float *in, float *out)
{
    extern __shared__ float cache[];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        cache[threadIdx.x] = in[i];
        __syncthreads();   // expect: CL502
        if (threadIdx.x == 0) {
            float s = 0.f;
            for (unsigned t = 0; t < blockDim.x; ++t)
                s += cache[t];
            out[i / blockDim.x] = s;
        }
        __syncthreads();   // expect: CL502
    }
}

void launch(int m, int c, const float *in, float *out)
{
    const int threads = c > 256 ? 256 : c;
    const int n = m * c;
    const int blocks = (n + threads - 1) / threads;
    if (c > 1024) {
        group_sum<<<blocks, threads, threads * sizeof(float)>>>(n, in, out);
    } else if (c < 64) {
        group_sum<<<blocks, threads, threads * sizeof(float)>>>(n, in, out);
    }
}
