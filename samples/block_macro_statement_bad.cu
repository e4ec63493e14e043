// The same launches, the second kernel without its tail guard: read after the macro, its grid is
// rounded up to whole blocks of 256, so the last block runs past n whenever n is no multiple of
// 256.
#include <cstdio>

#define CHECK_KERNEL                                                          \
    {                                                                         \
        cudaError_t e = cudaGetLastError();                                   \
        if (e != cudaSuccess) printf("%s\n", cudaGetErrorString(e));          \
    }

__global__ void fill(double *v, double x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = x;
}

__global__ void axpy(const double *x, double *y, double a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    y[i] += a * x[i];       // expect: CL202
}

void run(const double *x, double *y, double a, int n)
{
    fill<<<(n + 255) / 256, 256>>>(y, 0.0, n);
    CHECK_KERNEL

    axpy<<<(n + 255) / 256, 256>>>(x, y, a, n);
    CHECK_KERNEL
}
