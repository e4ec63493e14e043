// The same rows with a (2, 128) block and the row written as `blockIdx.x + threadIdx.x`: thread 1
// of block b and thread 0 of block b + 1 take the same row and store the same elements.
__global__ void scale_rows(const float* x, float* dst, int ne0, float theta) {
  const int i0 = blockDim.y * blockIdx.y + threadIdx.y;
  if (i0 >= ne0) return;
  const int row = blockIdx.x + threadIdx.x;
  const int i = row * ne0 + i0;
  dst[i] = x[i] * cosf(theta * i0);  // expect: CL301
}

void scale(const float* x, float* dst, int ne0, int nrows, float theta) {
  const dim3 block(2, 128, 1);
  const dim3 grid(nrows / 2, (ne0 + 127) / 128, 1);
  scale_rows<<<grid, block>>>(x, dst, ne0, theta);
}
