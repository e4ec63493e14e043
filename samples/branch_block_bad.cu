// The block size is picked by the branch that launches: 512 threads for wide rows, 128 for narrow
// ones. The tile is sized for the narrow block, so in the wide launch threads 128 to 511 store
// past it. `threads` is one value in each branch, not "one of two".
template <int THREADS>
__global__ void row_sum(const float* __restrict__ in, float* __restrict__ out, int cols)
{
    __shared__ float s[128];
    const float* row = in + (size_t)blockIdx.x * cols;
    float acc = 0.f;
    for (int c = threadIdx.x; c < cols; c += THREADS)
        acc += row[c];
    s[threadIdx.x] = acc;  // expect: CL201
    __syncthreads();
    for (int k = THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];  // expect: CL201
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

void row_sum_launch(const float* in, float* out, int rows, int cols)
{
    const int threads = cols >= 512 ? 512 : 128;
    if (cols >= 512)
        row_sum<512><<<rows, threads>>>(in, out, cols);
    else
        row_sum<128><<<rows, threads>>>(in, out, cols);
}
