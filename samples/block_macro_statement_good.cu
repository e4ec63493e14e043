// expect-clean
// Launches followed by a statement macro written without `;` (`CHECK_KERNEL`, whose body is a
// braced block: legal, and common after launches). Each launch is read where it stands: the grid
// is rounded up to whole blocks of 256, and the kernel guards its tail.
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
    if (i < n)
        y[i] += a * x[i];
}

void run(const double *x, double *y, double a, int n)
{
    fill<<<(n + 255) / 256, 256>>>(y, 0.0, n);
    CHECK_KERNEL

    axpy<<<(n + 255) / 256, 256>>>(x, y, a, n);
    CHECK_KERNEL
}
