// expect-clean
// Row-wise L1 normalisation of a rows x cols row-major matrix, one 256-thread
// block per row: a block-stride loop over the columns, a shared-memory tree
// reduction of the partial sums, then a second pass that scales the row.
#define THREADS 256

// cudalint: param rows=4096 cols=1024
__global__ void row_l1_normalize(float* __restrict__ A, int rows, int cols) {
  __shared__ float partial[THREADS];
  int row = blockIdx.x;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += fabsf(A[row * cols + c]);
  partial[threadIdx.x] = s;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  float inv = 1.0f / fmaxf(partial[0], 1e-12f);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) {
    float v = A[row * cols + c];
    A[row * cols + c] = v * inv;
  }
}

void run_row_l1_normalize(float* A, int rows, int cols) {
  row_l1_normalize<<<rows, THREADS>>>(A, rows, cols);
}
