// In-place ReLU whose block offset still uses the tile size from an earlier
// 128-thread version: blockIdx.x * TILE + threadIdx.x with 256-thread blocks.
// The block stride (128) is smaller than the block (256), so consecutive blocks
// overlap by half and the top of the array is never reached.
#define TILE 128
#define BLOCK 256

__global__ void relu_inplace(float* __restrict__ x, int n) {
  int i = blockIdx.x * TILE + threadIdx.x;
  if (i < n) x[i] = fmaxf(x[i], 0.0f);  // expect: CL301
}

void run_relu(float* x, int n) {
  relu_inplace<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);
}
