// expect-clean
// y = A * x with one warp per row: the lanes stride through the row together
// (coalesced), then a shuffle reduction, and lane 0 writes y[row].
#define THREADS 256
#define WARPS_PER_BLOCK (THREADS / 32)

__global__ void gemv(const float* __restrict__ A, const float* __restrict__ x,
                     float* __restrict__ y, int nrows, int ncols) {
  int row = blockIdx.x * WARPS_PER_BLOCK + threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (row >= nrows) return;
  float sum = 0.0f;
  for (int j = lane; j < ncols; j += 32)
    sum += A[row * ncols + j] * x[j];
  for (int off = 16; off > 0; off >>= 1)
    sum += __shfl_down_sync(0xffffffff, sum, off);
  if (lane == 0) y[row] = sum;
}

void run_gemv(const float* A, const float* x, float* y, int nrows, int ncols) {
  gemv<<<(nrows + WARPS_PER_BLOCK - 1) / WARPS_PER_BLOCK, THREADS>>>(A, x, y, nrows, ncols);
}
