// expect-clean
// Naive SGEMM, one thread per element of out. row comes from threadIdx.y and
// col from threadIdx.x, so the 32 lanes of a warp walk along one row of out:
// left[] is a broadcast, right[] and out[] are fully coalesced.

__global__ void matmul(const float* __restrict__ left, const float* __restrict__ right,
                       float* __restrict__ out, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float sum = 0.0f;
    for (int i = 0; i < K; ++i) {
      float a = left[row * K + i];
      float b = right[i * N + col];
      sum += a * b;
    }
    out[row * N + col] = sum;
  }
}

void run_matmul(const float* left, const float* right, float* out, int M, int N, int K) {
  dim3 block(32, 32);
  dim3 grid((N + 31) / 32, (M + 31) / 32);
  matmul<<<grid, block>>>(left, right, out, M, N, K);
}
