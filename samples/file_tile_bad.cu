// A transpose through a shared tile declared at file scope: the tile is
// written by rows and read down a column, 32 words apart, all in one bank
// (a 32-way conflict). Where the array is declared does not change the banks.
#define TILE 32

__shared__ float tile[TILE][TILE];

// cudalint: param rows=4096 cols=4096
__global__ void transpose_file_tile(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  int ox = blockIdx.y * TILE + threadIdx.x;
  int oy = blockIdx.x * TILE + threadIdx.y;
  out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];  // expect: CL401
}

void run_transpose_file_tile(const float* in, float* out, int rows, int cols) {
  dim3 block(TILE, TILE);
  dim3 grid(cols / TILE, rows / TILE);
  transpose_file_tile<<<grid, block>>>(in, out, rows, cols);
}
