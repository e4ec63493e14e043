// Shared-memory tiled SGEMM whose tile loads swap threadIdx.x and threadIdx.y in
// the global index (and store transposed into shared memory, so the result is
// still correct). threadIdx.x now walks down a column of A / B: each warp load
// touches 32 rows.
#define TILE 32

__global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                             float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    int aRow = blockIdx.y * TILE + tx;
    int aCol = t * TILE + ty;
    int bRow = t * TILE + tx;
    int bCol = blockIdx.x * TILE + ty;
    if (aRow < M && aCol < K)
      As[tx][ty] = A[aRow * K + aCol];  // expect: CL101, CL102, CL401
    else
      As[tx][ty] = 0.0f;  // expect: CL401
    if (bRow < K && bCol < N)
      Bs[tx][ty] = B[bRow * N + bCol];  // expect: CL101, CL102, CL401
    else
      Bs[tx][ty] = 0.0f;  // expect: CL401
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      sum += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

void run_matmul_tiled(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_tiled<<<grid, block>>>(A, B, C, M, N, K);
}
