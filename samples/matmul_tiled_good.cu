// expect-clean
// Shared-memory tiled SGEMM (TILE 32). Each 32x32 block stages a 32x32 tile of
// A and of B per step; threadIdx.x indexes the contiguous (column) dimension of
// both global loads, so every warp load is one 128-byte row segment.
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
    int aCol = t * TILE + tx;
    int bRow = t * TILE + ty;
    if (row < M && aCol < K)
      As[ty][tx] = A[row * K + aCol];
    else
      As[ty][tx] = 0.0f;
    if (bRow < K && col < N)
      Bs[ty][tx] = B[bRow * N + col];
    else
      Bs[ty][tx] = 0.0f;
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
