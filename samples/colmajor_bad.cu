// Column-major matrices (IDX2C) indexed with a row-major habit: the row i comes
// from threadIdx.y and the column j from threadIdx.x. In column-major storage
// the column carries the large stride (ld = rows), so a warp touches 32 columns.
#define IDX2C(i, j, ld) (((j) * (ld)) + (i))

__global__ void geam_colmajor(int rows, int cols, float alpha, const float* __restrict__ A,
                              float* __restrict__ B) {
  int j = blockIdx.x * blockDim.x + threadIdx.x;  // column
  int i = blockIdx.y * blockDim.y + threadIdx.y;  // row
  if (i < rows && j < cols)
    B[IDX2C(i, j, rows)] = alpha * A[IDX2C(i, j, rows)] + B[IDX2C(i, j, rows)];  // expect: CL102
}

void run_geam(int rows, int cols, float alpha, const float* A, float* B) {
  dim3 block(32, 8);
  dim3 grid((cols + block.x - 1) / block.x, (rows + block.y - 1) / block.y);
  geam_colmajor<<<grid, block>>>(rows, cols, alpha, A, B);
}
