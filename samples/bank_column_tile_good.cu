// expect-clean
// The same transpose with the tile's inner dimension padded to 33: a column
// read puts the lanes 33 words apart, one per bank, so it is conflict-free.
#define TILE 32

// cudalint: param rows=4096 cols=4096
__global__ void transpose_tile(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  int ox = blockIdx.y * TILE + threadIdx.x;
  int oy = blockIdx.x * TILE + threadIdx.y;
  out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

void run_transpose_tile(const float* in, float* out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid(cols / TILE, rows / TILE);
  transpose_tile<<<grid, block>>>(in, out, rows, cols);
}
