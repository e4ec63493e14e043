// expect-clean
// A BLAS-style kernel takes its strides as parameters; the program calls its wrapper only with unit
// strides, so every load and store is coalesced. The strides are the program's, not a sample.
__global__ void axpy_kernel(int n, float a, const float* x, int incx, float* y, int incy) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i * incy] += a * x[i * incx];
}

void axpy_gpu(int n, float a, const float* x, int incx, float* y, int incy) {
  axpy_kernel<<<(n + 255) / 256, 256>>>(n, a, x, incx, y, incy);
}

void update(float* w, const float* grad, float* momentum, int n) {
  axpy_gpu(n, 0.9f, momentum, 1, w, 1);
  axpy_gpu(n, -0.01f, grad, 1, w, 1);
}
