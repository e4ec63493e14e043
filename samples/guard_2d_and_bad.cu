// A 2-D guard written with `&&`: a thread returns only when it is past both edges, so the
// threads past the right edge of the first rows (and past the bottom of the first columns) run.
__global__ void sgemm_naive(int M, int N, int K, const float* A, const float* B, float* C) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= M && col >= N) return;
  float acc = 0.f;
  for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];  // expect: CL202
  C[row * N + col] = acc;  // expect: CL202
}

void sgemm(int M, int N, int K, const float* A, const float* B, float* C) {
  dim3 block(16, 16);
  dim3 grid((N + 15) / 16, (M + 15) / 16);
  sgemm_naive<<<grid, block>>>(M, N, K, A, B, C);
}
