// expect-clean
// In-place ReLU: the block offset uses the same constant as the launch.
#define BLOCK 256

__global__ void relu_inplace(float* __restrict__ x, int n) {
  int i = blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) x[i] = fmaxf(x[i], 0.0f);
}

void run_relu(float* x, int n) {
  relu_inplace<<<(n + BLOCK - 1) / BLOCK, BLOCK>>>(x, n);
}
