// Naive matrix transpose with a 32x8 block, each thread handling 4 rows of a
// 32x32 tile. The read is coalesced, but the write puts threadIdx.x on the
// large (height) stride and threadIdx.y on the unit stride: 32 sectors per
// warp store instead of 4.
#define TILE_DIM 32
#define BLOCK_ROWS 8

// cudalint: param width=2048 height=2048
__global__ void transpose_naive(float* __restrict__ odata, const float* __restrict__ idata,
                                int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
    float v = idata[(y + j) * width + x];
    odata[x * height + (y + j)] = v;  // expect: CL102
  }
}

void run_transpose(float* odata, const float* idata, int width, int height) {
  dim3 block(TILE_DIM, BLOCK_ROWS);
  dim3 grid(width / TILE_DIM, height / TILE_DIM);
  transpose_naive<<<grid, block>>>(odata, idata, width, height);
}
