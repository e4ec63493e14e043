// expect-clean
// Register tiling reads eight consecutive floats of a row of `As` in an unrolled loop, and a
// Haar step reads s[2t] beside s[2t + 1]. nvcc proves the first address of each group 16-byte
// (8-byte) aligned and merges the reads into LDS.128 (LDS.64). Read one float at a time the row
// read would be 2-way (rows t/4 are 8 words apart); as the merged request the hardware serves,
// each quarter-warp (half-warp) hits distinct banks.
#define BK 8
#define TM 8

__global__ void rowtile(const float* A, float* C) {
  __shared__ float As[BK * 64];
  const int t = threadIdx.x;                    // one warp
  for (int k = t; k < BK * 64; k += 32) As[k] = A[blockIdx.x * BK * 64 + k];
  __syncthreads();
  const int row = t / 4;
  float acc = 0.0f;
  for (int dot = 0; dot < BK; ++dot) {
    float reg[TM];
    for (int i = 0; i < TM; ++i) reg[i] = As[dot * 64 + row * TM + i];
    for (int i = 0; i < TM; ++i) acc += reg[i] * (float)(t % 4 + i);
  }
  C[blockIdx.x * 32 + t] = acc;
}

__global__ void haar(const float* in, float* detail) {
  __shared__ float s[512];
  const int t = threadIdx.x;                    // 256 threads
  s[t] = in[blockIdx.x * 512 + t];
  s[t + 256] = in[blockIdx.x * 512 + t + 256];
  __syncthreads();
  float a = s[2 * t];
  float b = s[2 * t + 1];
  detail[blockIdx.x * 256 + t] = (a - b) * 0.70710678f;
}

void run(const float* A, float* C, const float* in, float* d) {
  rowtile<<<1024, 32>>>(A, C);
  haar<<<1024, 256>>>(in, d);
}
