// Register-tiled GEMM written index by index from the Two Tree Table:
// Grid 32x32, Block 8x8, Thread 1 / Global 1024x1024, Shared 32x32, Register 4x4.
// Iterators: tileId SLIDE (1024 / 32 = 32), stride AREA ((32x32) / (8x8) = 16),
// regCol/regRow AREA ((4x4) / (1x1) = 16). Every index passes its max check;
// the C store is still uncoalesced: a warp writes 4 rows x 8 floats spaced
// WORK_PER_THREAD apart, 16 sectors per request where 4 would do.
#define TILE_SIZE 32
#define WORK_PER_THREAD 4

// cudalint: param M=1024 N=1024 K=1024
__global__ void gemm_twotree(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int M, int N, int K) {
  __shared__ float A_shared[TILE_SIZE][TILE_SIZE];
  __shared__ float B_shared[TILE_SIZE][TILE_SIZE];
  float acc[WORK_PER_THREAD][WORK_PER_THREAD] = {};

  // Load phase: Flatten -> Stride -> Unflatten, then the four questions.
  int localId = threadIdx.y * blockDim.x + threadIdx.x;
  for (int tileId = 0; tileId < K / TILE_SIZE; ++tileId) {
    for (int stride = 0; stride < (TILE_SIZE * TILE_SIZE) / (blockDim.x * blockDim.y); ++stride) {
      int flatIdx = stride * (blockDim.x * blockDim.y) + localId;
      int sCol = flatIdx % TILE_SIZE;
      int sRow = flatIdx / TILE_SIZE;
      int aCol = tileId * TILE_SIZE + sCol;
      int aRow = blockIdx.y * TILE_SIZE + sRow;
      int bCol = blockIdx.x * TILE_SIZE + sCol;
      int bRow = tileId * TILE_SIZE + sRow;
      A_shared[sRow][sCol] = A[aRow * K + aCol];
      B_shared[sRow][sCol] = B[bRow * N + bCol];
    }
    __syncthreads();

    // Compute phase: each thread's own 4x4 corner of the shared tiles.
    for (int k = 0; k < TILE_SIZE; ++k) {
      for (int regRow = 0; regRow < WORK_PER_THREAD; ++regRow) {
        for (int regCol = 0; regCol < WORK_PER_THREAD; ++regCol) {
          int sharedCol = threadIdx.x * WORK_PER_THREAD + regCol;
          int sharedRow = threadIdx.y * WORK_PER_THREAD + regRow;
          acc[regRow][regCol] += A_shared[sharedRow][k] * B_shared[k][sharedCol];  // expect: CL401
        }
      }
    }
    __syncthreads();
  }

  // Store phase: read straight off the table.
  for (int regRow = 0; regRow < WORK_PER_THREAD; ++regRow) {
    for (int regCol = 0; regCol < WORK_PER_THREAD; ++regCol) {
      int cCol = blockIdx.x * TILE_SIZE + threadIdx.x * WORK_PER_THREAD + regCol;
      int cRow = blockIdx.y * TILE_SIZE + threadIdx.y * WORK_PER_THREAD + regRow;
      C[cRow * N + cCol] = acc[regRow][regCol];  // expect: CL101
    }
  }
}

void run_gemm_twotree(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(TILE_SIZE / WORK_PER_THREAD, TILE_SIZE / WORK_PER_THREAD);
  dim3 grid(N / TILE_SIZE, M / TILE_SIZE);
  gemm_twotree<<<grid, block>>>(A, B, C, M, N, K);
}
