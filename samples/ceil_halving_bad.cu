// The same reduction without the barrier that ends each step: the next step's threads read what
// the previous step's threads are still adding.
__device__ float block_sum(float *buf)
{
    int n = blockDim.x;
    __syncthreads();
    while (n > 1) {
        int half = (n + 1) >> 1;
        if (threadIdx.x >= half && threadIdx.x < n)
            buf[threadIdx.x - half] += buf[threadIdx.x];      // expect: CL501
        n = (n + 1) >> 1;
    }
    return buf[0];      // expect: CL501
}

__global__ void row_sums(const float *x, float *out, int cols)
{
    __shared__ float buf[200];
    float v = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        v += x[blockIdx.x * cols + c];
    buf[threadIdx.x] = v;
    float s = block_sum(buf);
    if (threadIdx.x == 0)
        out[blockIdx.x] = s;
}

void launch_row_sums(const float *x, float *out, int rows, int cols)
{
    row_sums<<<rows, 200>>>(x, out, cols);
}
