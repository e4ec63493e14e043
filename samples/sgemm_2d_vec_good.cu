// Coalesced throughout; the transposed As stores are 2-way bank conflicts. The Bs reads are
// conflict-free: nvcc merges each thread's 4 floats into one LDS.128.
// 2D blocktiling SGEMM with float4 (128-bit) global loads and stores, after
// siboehm's kernel 6. BM = BN = 64, BK = 8, TM x TN = 8 x 4 results per thread,
// 128 threads. A is transposed while being staged into shared memory.
// With TN = 4 each thread owns exactly one float4 of a C row, so the 16
// threads of a half-warp write 256 contiguous bytes.
#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))

// cudalint: param M=4096 N=4096 K=4096
template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void sgemm2d_vec(int M, int N, int K, float alpha, const float* __restrict__ A,
                            const float* __restrict__ B, float beta, float* __restrict__ C) {
  const uint cRow = blockIdx.y;
  const uint cCol = blockIdx.x;
  const int threadCol = threadIdx.x % (BN / TN);
  const int threadRow = threadIdx.x / (BN / TN);

  __shared__ float As[BM * BK];  // transposed: As[k * BM + m]
  __shared__ float Bs[BK * BN];

  A += cRow * BM * K;
  B += cCol * BN;
  C += cRow * BM * N + cCol * BN;

  const uint innerRowA = threadIdx.x / (BK / 4);
  const uint innerColA = threadIdx.x % (BK / 4);
  const uint innerRowB = threadIdx.x / (BN / 4);
  const uint innerColB = threadIdx.x % (BN / 4);

  float threadResults[TM * TN] = {0.0f};
  float regM[TM];
  float regN[TN];

  for (uint bkIdx = 0; bkIdx < K; bkIdx += BK) {
    float4 a4 = reinterpret_cast<const float4*>(&A[innerRowA * K + innerColA * 4])[0];
    As[(innerColA * 4 + 0) * BM + innerRowA] = a4.x;  // expect: CL401
    As[(innerColA * 4 + 1) * BM + innerRowA] = a4.y;  // expect: CL401
    As[(innerColA * 4 + 2) * BM + innerRowA] = a4.z;  // expect: CL401
    As[(innerColA * 4 + 3) * BM + innerRowA] = a4.w;  // expect: CL401
    float4 b4 = reinterpret_cast<const float4*>(&B[innerRowB * N + innerColB * 4])[0];
    reinterpret_cast<float4*>(&Bs[innerRowB * BN + innerColB * 4])[0] = b4;
    __syncthreads();
    A += BK;
    B += BK * N;

    for (uint dotIdx = 0; dotIdx < BK; ++dotIdx) {
      for (uint i = 0; i < TM; ++i)
        regM[i] = As[dotIdx * BM + threadRow * TM + i];
      for (uint i = 0; i < TN; ++i)
        regN[i] = Bs[dotIdx * BN + threadCol * TN + i];  // one LDS.128: conflict-free
      for (uint m = 0; m < TM; ++m)
        for (uint n = 0; n < TN; ++n)
          threadResults[m * TN + n] += regM[m] * regN[n];
    }
    __syncthreads();
  }

  for (uint m = 0; m < TM; ++m) {
    for (uint n = 0; n < TN; n += 4) {
      float4 c4 = reinterpret_cast<float4*>(&C[(threadRow * TM + m) * N + threadCol * TN + n])[0];
      c4.x = alpha * threadResults[m * TN + n + 0] + beta * c4.x;
      c4.y = alpha * threadResults[m * TN + n + 1] + beta * c4.y;
      c4.z = alpha * threadResults[m * TN + n + 2] + beta * c4.z;
      c4.w = alpha * threadResults[m * TN + n + 3] + beta * c4.w;
      reinterpret_cast<float4*>(&C[(threadRow * TM + m) * N + threadCol * TN + n])[0] = c4;
    }
  }
}

void run_sgemm2d_vec(int M, int N, int K, float alpha, const float* A, const float* B,
                     float beta, float* C) {
  const int BM = 64, BN = 64, BK = 8, TM = 8, TN = 4;
  dim3 grid(CEIL_DIV(N, BN), CEIL_DIV(M, BM));
  dim3 block((BM * BN) / (TM * TN));
  sgemm2d_vec<BM, BN, BK, TM, TN><<<grid, block>>>(M, N, K, alpha, A, B, beta, C);
}
