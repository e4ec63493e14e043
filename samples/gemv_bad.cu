// y = A * x with one thread per row of a row-major A. At each step j the 32
// lanes of a warp read A[row][j] from 32 different rows (32 sectors instead of
// 4); x[j] is a broadcast and is fine.

__global__ void gemv(const float* __restrict__ A, const float* __restrict__ x,
                     float* __restrict__ y, int nrows, int ncols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < nrows) {
    float sum = 0.0f;
    for (int j = 0; j < ncols; ++j) {
      float a = A[row * ncols + j];  // expect: CL101
      sum += a * x[j];
    }
    y[row] = sum;
  }
}

void run_gemv(const float* A, const float* x, float* y, int nrows, int ncols) {
  gemv<<<(nrows + 255) / 256, 256>>>(A, x, y, nrows, ncols);
}
