// Rotary embedding over rows: a (1, 256) block, so threadIdx.x is always 0 and the row is the
// block's x index. The row term `row * ne0` tiles the output with the pairs below it.
__global__ void rope_rows(const float* x, float* dst, int ne0, float theta) {
  const int i0 = 2 * (blockDim.y * blockIdx.y + threadIdx.y);
  if (i0 >= ne0) return;
  const int row = blockDim.x * blockIdx.x + threadIdx.x;
  const int i = row * ne0 + i0;
  const float c = cosf(theta * i0), s = sinf(theta * i0);
  dst[i + 0] = x[i] * c - x[i + 1] * s;  // expect-clean
  dst[i + 1] = x[i] * s + x[i + 1] * c;  // expect-clean
}

void rope(const float* x, float* dst, int ne0, int nrows, float theta) {
  const dim3 block(1, 256, 1);
  const dim3 grid(nrows, (ne0 + 2 * 256 - 1) / (2 * 256), 1);
  rope_rows<<<grid, block>>>(x, dst, ne0, theta);
}
