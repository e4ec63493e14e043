// The same reads where nvcc cannot prove the alignment, so each float is its own LDS.32: the row
// pitch is a kernel argument (the launch passes 8, but the compiler does not know it), and the
// Haar step reads through a `volatile` pointer, which is never merged.
#define BK 8
#define TM 8

__global__ void rowtile(const float* A, float* C, int pitch) {
  __shared__ float As[BK * 64];
  const int t = threadIdx.x;                    // one warp
  for (int k = t; k < BK * 64; k += 32) As[k] = A[blockIdx.x * BK * 64 + k];
  __syncthreads();
  const int row = t / 4;
  float acc = 0.0f;
  for (int dot = 0; dot < BK; ++dot) {
    float reg[TM];
    for (int i = 0; i < TM; ++i) reg[i] = As[dot * 64 + row * pitch + i];  // expect: CL401
    for (int i = 0; i < TM; ++i) acc += reg[i] * (float)(t % 4 + i);
  }
  C[blockIdx.x * 32 + t] = acc;
}

__global__ void haar(const float* in, float* detail) {
  __shared__ float s[512];
  volatile float* vs = s;
  const int t = threadIdx.x;                    // 256 threads
  s[t] = in[blockIdx.x * 512 + t];
  s[t + 256] = in[blockIdx.x * 512 + t + 256];
  __syncthreads();
  float a = vs[2 * t];                          // expect: CL401
  float b = vs[2 * t + 1];                      // expect: CL401
  detail[blockIdx.x * 256 + t] = (a - b) * 0.70710678f;
}

void run(const float* A, float* C, const float* in, float* d) {
  rowtile<<<1024, 32>>>(A, C, TM);
  haar<<<1024, 256>>>(in, d);
}
