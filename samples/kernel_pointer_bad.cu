// The NVIDIA transpose sample's driver: a function pointer picks one of the
// kernels in a switch inside the benchmark loop, and one launch runs them all
// with a 32x16 block (TILE_DIM x BLOCK_ROWS). Each kernel is analysed with that
// launch: the copy is clean, and the naive transpose writes down columns.
#define TILE_DIM 32
#define BLOCK_ROWS 16

// cudalint: param width=2048 height=2048
__global__ void copy_tile(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    odata[(y + i) * width + x] = idata[(y + i) * width + x];
}

// cudalint: param width=2048 height=2048
__global__ void transpose_naive(float *odata, const float *idata, int width, int height) {
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int i = 0; i < TILE_DIM; i += BLOCK_ROWS)
    odata[x * height + (y + i)] = idata[(y + i) * width + x];  // expect: CL102
}

void run_all(float *odata, const float *idata, int width, int height) {
  void (*kernel)(float *, const float *, int, int);
  dim3 grid(width / TILE_DIM, height / TILE_DIM), threads(TILE_DIM, BLOCK_ROWS);
  for (int k = 0; k < 2; k++) {
    switch (k) {
      case 0: kernel = &copy_tile; break;
      case 1: kernel = &transpose_naive; break;
    }
    kernel<<<grid, threads>>>(odata, idata, width, height);
  }
}
