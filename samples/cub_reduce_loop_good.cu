// expect-clean
// The same reduction with a barrier after thread 0 stores the slot. The slot is
// stored again in the next row's iteration only after that row's BlockReduce,
// which waits for the whole block (CUB's block collectives end at a barrier):
// no thread still reads the old total when it changes.
#include <cub/block/block_reduce.cuh>

#define THREADS 256

// cudalint: param rows=1024 cols=4096
__global__ void normalize_rows_synced(float* __restrict__ x, int rows, int cols) {
  typedef cub::BlockReduce<float, THREADS> BlockReduce;
  __shared__ typename BlockReduce::TempStorage temp;
  __shared__ float total;
  for (int r = blockIdx.x; r < rows; r += gridDim.x) {
    float v = x[r * cols + threadIdx.x];
    float sum = BlockReduce(temp).Sum(v);
    if (threadIdx.x == 0) total = sum;
    __syncthreads();
    x[r * cols + threadIdx.x] = v / total;
  }
}

void run_normalize_rows_synced(float* x, int rows, int cols) {
  normalize_rows_synced<<<64, THREADS>>>(x, rows, cols);
}
