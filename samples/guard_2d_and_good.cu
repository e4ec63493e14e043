// expect-clean
// `||`: a thread past either edge returns.
__global__ void sgemm_naive(int M, int N, int K, const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M || col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
  C[row * N + col] = acc;
}

void sgemm(int M, int N, int K, const float* A, const float* B, float* C) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  sgemm_naive<<<grid, block>>>(M, N, K, A, B, C);
}
