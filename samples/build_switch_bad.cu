// The same kernel without its tail guard, under the project's CUDA switch: the grid is rounded up
// to whole blocks, so the last block's threads past n read and write past the arrays.
#if defined(USE_CUDA)
__global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] = a * x[i];        // expect: CL202
}

void launch_scale(const float *x, float *y, float a, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, y, a, n);
}
#endif
