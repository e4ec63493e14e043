// expect-clean
// The same tiled SGEMM with both barriers: the first orders the tile stores
// before the reads, the second keeps the next iteration's stores out until
// every thread has finished reading the current tile.
#define TILE 16

__global__ void matmul_tiled_sync(const float* __restrict__ A, const float* __restrict__ B,
                                  float* __restrict__ C, int M, int N, int K) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty;
  int col = blockIdx.x * TILE + tx;
  float sum = 0.0f;
  for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
    if (row < M && t * TILE + tx < K)
      As[ty][tx] = A[row * K + t * TILE + tx];
    else
      As[ty][tx] = 0.0f;
    if (col < N && t * TILE + ty < K)
      Bs[ty][tx] = B[(t * TILE + ty) * N + col];
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

void run_matmul_tiled_sync(const float* A, const float* B, float* C, int M, int N, int K) {
  dim3 block(TILE, TILE);
  dim3 grid((N + TILE - 1) / TILE, (M + TILE - 1) / TILE);
  matmul_tiled_sync<<<grid, block>>>(A, B, C, M, N, K);
}
