// 1D blocktiling SGEMM (siboehm's kernel 4) with the A-tile load index swapped:
// innerRowA = threadIdx.x % BM makes the row vary fastest, so the 32 lanes of a
// warp read one float from each of 32 different rows of A (32 sectors instead
// of 4). The shared tile still ends up correct; only the global load is slow.
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))

// cudalint: param M=4096 N=4096 K=4096
template <const int BM, const int BN, const int BK, const int TM>
__global__ void sgemm1d(int M, int N, int K, float alpha, const float* A,
                        const float* B, float beta, float* C) {
  const uint cRow = blockIdx.y;
  const uint cCol = blockIdx.x;
  const int threadCol = threadIdx.x % BN;
  const int threadRow = threadIdx.x / BN;

  __shared__ float As[BM * BK];
  __shared__ float Bs[BK * BN];

  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  // "rows first" -- the A tile is walked down its columns
  const uint innerRowA = threadIdx.x % BM;
  const uint innerColA = threadIdx.x / BM;
  const uint innerColB = threadIdx.x % BN;
  const uint innerRowB = threadIdx.x / BN;

  float threadResults[TM] = {0.0f};

  for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
    As[innerRowA * BK + innerColA] = A[innerRowA * K + innerColA];  // expect: CL101, CL401
    Bs[innerRowB * BN + innerColB] = B[innerRowB * N + innerColB];
    __syncthreads();
    A += BK;
    B += BK * N;
    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
      float tmpB = Bs[dotIdx * BN + threadCol];
      for (uint resIdx = 0; resIdx < TM; ++resIdx)
        threadResults[resIdx] += As[(threadRow * TM + resIdx) * BK + dotIdx] * tmpB;
    }
    __syncthreads();
  }

  for (uint resIdx = 0; resIdx < TM; ++resIdx) {
    const int cIdx = (threadRow * TM + resIdx) * N + threadCol;
    C[cIdx] = alpha * threadResults[resIdx] + beta * C[cIdx];
  }
}

void run_sgemm1d(int M, int N, int K, float alpha, const float* A, const float* B,
                 float beta, float* C) {
  dim3 grid(CEIL_DIV(N, 64), CEIL_DIV(M, 64));
  dim3 block((64 * 64) / 8);
  sgemm1d<64, 64, 8, 8><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
