// expect-clean
// The project builds its CUDA code only where its build defines USE_CUDA (as a CUDA build does):
// cudalint reads the CUDA build, so the kernel is linted. It guards its tail.
#ifdef USE_CUDA
__global__ void scale(const float *x, float *y, float a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = a * x[i];
}

void launch_scale(const float *x, float *y, float a, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, y, a, n);
}
#endif
