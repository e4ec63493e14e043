// The same reduction on a shared array of fixed size: there nvcc keeps each load and store of
// the pairs 4 bytes wide when stores lie between them (LDS/STS in the sm_90 SASS, with `int` or
// `unsigned` indexes, the loop unrolled or not), so a warp's lanes are 8 bytes apart: 2-way.
__global__ void sum_and_squares(const float *x, float *out, int n)
{
    __shared__ float s[2 * 256];
    const int lid = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? x[i] : 0.0f;
    s[2 * lid] = v;
    s[2 * lid + 1] = v * v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (lid < stride) {
            s[2 * lid] += s[2 * (lid + stride)];                // expect: CL401
            s[2 * lid + 1] += s[2 * (lid + stride) + 1];        // expect: CL401
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
    sum_and_squares<<<(n + 255) / 256, 256>>>(x, out, n);
}
