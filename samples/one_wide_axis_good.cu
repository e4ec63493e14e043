// expect-clean
// Scaling rows by a per-column factor: a (1, 256) block, so threadIdx.x is always 0 and the row is
// the block's x index. The row term `row * ne0` tiles the output with the columns below it; the
// lanes of a warp run along y, one float apart.
__global__ void scale_rows(const float* x, float* dst, int ne0, float theta) {
  const int i0 = blockDim.y * blockIdx.y + threadIdx.y;
  if (i0 >= ne0) return;
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  const int i = row * ne0 + i0;
  dst[i] = x[i] * cosf(theta * i0);
}

void scale(const float* x, float* dst, int ne0, int nrows, float theta) {
  const dim3 block(1, 256, 1);
  const dim3 grid(nrows, (ne0 + 255) / 256, 1);
  scale_rows<<<grid, block>>>(x, dst, ne0, theta);
}
