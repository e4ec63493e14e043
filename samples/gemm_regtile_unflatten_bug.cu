// Mutation of gemm_regtile.cu: the Unflatten step is swapped (row varies
// fastest). The tiles still receive the right values, but the 32 lanes of a
// warp now walk down a column of A and of B: 32 sectors per load instead of 4.
// The C store is unchanged (and still wasteful).
#define TILE_SIZE 32
#define WPT 4

// cudalint: param M=1024 N=1024 K=1024
__global__ void gemm_regtile(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE_SIZE][TILE_SIZE];
  __shared__ float Bs[TILE_SIZE][TILE_SIZE];
  float acc[WPT][WPT];
  for (int i = 0; i < WPT; ++i)
    for (int j = 0; j < WPT; ++j)
      acc[i][j] = 0.0f;

  // Flatten: one linear id per thread of the 8 x 8 block.
  int localId = threadIdx.y * blockDim.x + threadIdx.x;
  for (int t = 0; t < K / TILE_SIZE; ++t) {
    // Stride: 64 threads cover the 32 x 32 tile in 16 steps.
    for (int stride = 0; stride < 16; ++stride) {
      int flatIdx = stride * (blockDim.x * blockDim.y) + localId;
      // Unflatten (swapped): row varies fastest.
      int sCol = flatIdx / TILE_SIZE;
      int sRow = flatIdx % TILE_SIZE;
      int aRow = blockIdx.y * TILE_SIZE + sRow;
      int aCol = t * TILE_SIZE + sCol;
      As[sRow][sCol] = A[aRow * K + aCol];  // expect: CL101, CL401
      int bRow = t * TILE_SIZE + sRow;
      int bCol = blockIdx.x * TILE_SIZE + sCol;
      Bs[sRow][sCol] = B[bRow * N + bCol];  // expect: CL101, CL401
    }
    __syncthreads();
    for (int k = 0; k < TILE_SIZE; ++k) {
      for (int regRow = 0; regRow < WPT; ++regRow) {
        int sharedRow = threadIdx.y * WPT + regRow;
        float a = As[sharedRow][k];  // expect: CL401
        for (int regCol = 0; regCol < WPT; ++regCol) {
          int sharedCol = threadIdx.x * WPT + regCol;
          acc[regRow][regCol] += a * Bs[k][sharedCol];
        }
      }
    }
    __syncthreads();
  }

  for (int regRow = 0; regRow < WPT; ++regRow) {
    for (int regCol = 0; regCol < WPT; ++regCol) {
      int cRow = blockIdx.y * TILE_SIZE + threadIdx.y * WPT + regRow;
      int cCol = blockIdx.x * TILE_SIZE + threadIdx.x * WPT + regCol;
      C[cRow * N + cCol] = acc[regRow][regCol];  // expect: CL101
    }
  }
}

void run_gemm_regtile(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(TILE_SIZE / WPT, TILE_SIZE / WPT);
  dim3 grid(N / TILE_SIZE, M / TILE_SIZE);
  gemm_regtile<<<grid, block>>>(A, B, C, M, N, K);
}
