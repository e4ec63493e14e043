// expect-clean
// Transpose through an unpadded 32x32 tile whose columns are swizzled: element
// (r, c) lives at tile[r][c ^ r]. Both the row store and the column read put the
// 32 lanes of a warp in 32 different banks.
#define TILE 32

// cudalint: param rows=4096 cols=4096
__global__ void transpose_swizzled(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx;
  int y = blockIdx.y * TILE + ty;
  tile[ty][tx ^ ty] = in[y * cols + x];
  __syncthreads();
  int ox = blockIdx.y * TILE + tx;
  int oy = blockIdx.x * TILE + ty;
  out[oy * rows + ox] = tile[tx][ty ^ tx];
}

void run_transpose_swizzled(const float* in, float* out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid(cols / TILE, rows / TILE);
  transpose_swizzled<<<grid, block>>>(in, out, rows, cols);
}
