// expect-clean
// Double-precision AXPY: 8-byte elements, 256 bytes = 8 sectors per warp
// request, exactly the ideal for 32 doubles.

__global__ void daxpy(int n, double a, const double* __restrict__ x, double* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

void run_daxpy(int n, double a, const double* x, double* y) {
  dim3 block(128);
  dim3 grid((n + block.x - 1) / block.x);
  daxpy<<<grid, block>>>(n, a, x, y);
}
