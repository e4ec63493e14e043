// expect-clean
// Matrix transpose through a shared-memory tile (32x33: the +1 column pads away
// bank conflicts). Both the global read and the global write have threadIdx.x on
// the unit stride; the transposition happens in shared memory.
#define TILE_DIM 32
#define BLOCK_ROWS 8

// cudalint: param width=2048 height=2048
__global__ void transpose_coalesced(float* __restrict__ odata, const float* __restrict__ idata,
                                    int width, int height) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;  // transpose block offset
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

void run_transpose(float* odata, const float* idata, int width, int height) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid(width / TILE_DIM, height / TILE_DIM);
  transpose_coalesced<<<grid, block>>>(odata, idata, width, height);
}
