// expect-clean
// Two running sums per thread side by side in dynamic shared memory, reduced in one loop:
// `s[2 * lid] += s[2 * (lid + stride)]; s[2 * lid + 1] += s[2 * (lid + stride) + 1];`. The store
// to `s[2 * lid]` (an even word) cannot touch `s[2 * (lid + stride) + 1]` (an odd one), and on an
// `extern __shared__` array nvcc moves the second load up to the first and the first store down
// to the second: each pair is one 8-byte load or store (LDS.64/STS.64 in the sm_90 SASS), a
// warp's lanes 8 bytes apart, no bank conflict.
__global__ void sum_and_squares(const float *x, float *out, int n)
{
    extern __shared__ float s[];
    const int lid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    s[2 * lid] = v;
    s[2 * lid + 1] = v * v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (lid < stride) {
            s[2 * lid] += s[2 * (lid + stride)];
            s[2 * lid + 1] += s[2 * (lid + stride) + 1];
        }
        __syncthreads();
    }
    if (lid == 0) {
        out[2 * blockIdx.x] = s[0];
        out[2 * blockIdx.x + 1] = s[1];
    }
}

void launch(const float *x, float *out, int n)
{
    sum_and_squares<<<(n + 255) / 256, 256, 2 * 256 * sizeof(float)>>>(x, out, n);
}
