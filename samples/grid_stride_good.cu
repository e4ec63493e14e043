// expect-clean
// SAXPY with a grid-stride loop: a fixed-size grid (4 blocks per SM on a
// 108-SM A100) sweeps the whole array; at every step the lanes of a warp touch
// consecutive elements, and the loop condition guards the tail.

// cudalint: param n=1048576
__global__ void saxpy_grid_stride(int n, float a, const float* __restrict__ x,
                                  float* __restrict__ y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

void run_saxpy(int n, float a, const float* x, float* y) {
  dim3 grid(4 * 108);
  dim3 block(256);
  saxpy_grid_stride<<<grid, block>>>(n, a, x, y);
}
