// A CUB block reduction per row, its total shared with the block through one
// __shared__ slot. Thread 0 stores the slot and every thread reads it back with
// no barrier between: threads of other warps may read the previous row's total.
#include <cub/block/block_reduce.cuh>

#define THREADS 256

// cudalint: param rows=1024 cols=4096
__global__ void normalize_rows(float* __restrict__ x, int rows, int cols) {
  typedef cub::BlockReduce<float, THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float total;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float v = x[r * cols + threadIdx.x];
    float sum = BlockReduce(temp).Sum(v);
    if (threadIdx.x == 0) total = sum;
    x[r * cols + threadIdx.x] = v / total;  // expect: CL501
  }
}

void run_normalize_rows(float* x, int rows, int cols) {
  normalize_rows<<<64, THREADS>>>(x, rows, cols);
}
