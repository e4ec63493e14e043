// A row-major matrix scaled by a 4x4 block whose x walks the rows. A warp of 16
// threads is the same 4x4 tile whichever index moves fastest: swapping x and y
// touches the same four 16-byte runs. No transposition to report (CL102); the
// narrow tile costs 4 sectors where 2 would do, which CL101 says as it is.
// cudalint: param rows=4096 cols=4096
__global__ void scale_tile4(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  int c = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols)
    out[r * cols + c] = 2.0f * in[r * cols + c];  // expect: CL101
}

void run_scale_tile4(float* out, const float* in, int rows, int cols) {
  dim3 block(4, 4);
  dim3 grid((rows + 3) / 4, (cols + 3) / 4);
  scale_tile4<<<grid, block>>>(out, in, rows, cols);
}
