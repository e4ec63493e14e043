// The same kernel launched on a fixed grid of 64 blocks: for H > 64 a block's `h` loop runs again,
// and thread 0 stores the next row while the other threads still read this one.
struct Shape {
    int H;
    int K;
};

__global__ void head_sums(Shape shape, const float *q, float *o)
{
    auto [H, K] = shape;
    extern __shared__ float row[];
    for (int h = blockIdx.x; h < H; h += gridDim.x) {
        for (int k = threadIdx.x; k < K; k += blockDim.x)
            row[k] = q[h * K + k];
        __syncthreads();
        float sum = 0.0f;
        for (int k = 0; k < K; k++)
            sum += row[k];      // expect: CL501
        if (threadIdx.x == 0)
            o[h] = sum;
    }
}

void run_head_sums(Shape shape, const float *q, float *o)
{
    auto [H, K] = shape;
    head_sums<<<dim3(64), dim3(256), K * sizeof(float)>>>(shape, q, o);
}
