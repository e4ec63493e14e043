// The same scaling with a 16x16 block: a warp is 16 lanes along x (16 rows) by 2
// along y, so a request touches 16 rows where the swapped index would touch 2.
// threadIdx.x carries the row stride: swap x and y.
// cudalint: param rows=4096 cols=4096
__global__ void scale_tile16(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = 2.0f * in[r * cols + c];  // expect: CL102
}

void run_scale_tile16(float* out, const float* in, int rows, int cols) {
  dim3 block(16, 16);
  dim3 grid((rows + 15) / 16, (cols + 15) / 16);
  scale_tile16<<<grid, block>>>(out, in, rows, cols);
}
