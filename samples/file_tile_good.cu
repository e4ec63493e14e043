// expect-clean
// The file-scope tile padded by one column: a column's 32 words fall in 32
// different banks.
#define TILE 32

__shared__ float tile[TILE][TILE + 1];

// cudalint: param rows=4096 cols=4096
__global__ void transpose_padded_file_tile(const float* __restrict__ in, float* __restrict__ out, int rows,
                                           int cols) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  int ox = blockIdx.y * TILE + threadIdx.x;
  int oy = blockIdx.x * TILE + threadIdx.y;
  out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}

void run_transpose_padded_file_tile(const float* in, float* out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid(cols / TILE, rows / TILE);
  transpose_padded_file_tile<<<grid, block>>>(in, out, rows, cols);
}
