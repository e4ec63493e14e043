// expect-clean
// Each pass reads rows `i_n .. i_n + blockDim.y - 1` and the loop steps 16
// rows: whether rows are skipped depends on blockDim.y, which the caller
// passes in `Bl` and the program never fixes. A stride mismatch resting on a
// block size cudalint would have to make up is no finding.
#define TILE 16
__global__ void column_sums(const float *N, int rows, int cols, int stride, float *v) {
  const int j_n = blockIdx.x * TILE + threadIdx.x;
  int i_n = threadIdx.y;
  float tsum = 0.0f;
  for (int block_i_n = 0; block_i_n < rows; block_i_n += TILE) {
    if (j_n < cols && i_n < rows) {
      tsum += N[i_n * stride + j_n];
    }
    i_n += TILE;
  }
  atomicAdd(&v[j_n], tsum);
}

void run_column_sums(dim3 Gr, dim3 Bl, const float *N, int rows, int cols, int stride, float *v) {
  column_sums<<<Gr, Bl>>>(N, rows, cols, stride, v);
}
