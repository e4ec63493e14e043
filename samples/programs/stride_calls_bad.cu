// The same kernel called on a column of a row-major 64 x n matrix: `incx` is 64 at the only call,
// so the lanes of a warp read floats 256 bytes apart.
__global__ void scal_kernel(int n, float a, const float* x, int incx, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i * incx];  // expect: CL101
}

void scal_gpu(int n, float a, const float* x, int incx, float* y) {
  scal_kernel<<<(n + 255) / 256, 256>>>(n, a, x, incx, y);
}

void column_scale(const float* m, float* col, int rows) {
  scal_gpu(rows, 2.0f, m, 64, col);
}
