// expect-clean
// cuBLAS-style column-major matrices with the IDX2C macro. The row index i
// (unit stride in column-major storage) comes from threadIdx.x.
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

__global__ void geam_colmajor(int rows, int cols, float alpha, const float* __restrict__ A,
                              float* __restrict__ B) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;  // row
  int j = blockIdx.y * blockDim.y + threadIdx.y;  // column
  if (i < rows && j < cols)
    B[IDX2C(i, j, rows)] = alpha * A[IDX2C(i, j, rows)] + B[IDX2C(i, j, rows)];
}

void run_geam(int rows, int cols, float alpha, const float* A, float* B) {
  dim3 block(32, 8);
  dim3 grid((rows + block.x - 1) / block.x, (cols + block.y - 1) / block.y);
  geam_colmajor<<<grid, block>>>(rows, cols, alpha, A, B);
}
