// float2 and float4 tiles read down a column: 8-byte requests run in half-warp
// phases, 16-byte ones in quarter-warp phases, and within a phase the lanes
// still land on one group of banks.
#define TILE 32

// cudalint: param n=4096
__global__ void column_vectors(const float2* __restrict__ in2, const float4* __restrict__ in4,
                               float* __restrict__ out, int n) {
  __shared__ float2 t2[TILE][TILE];
  __shared__ float4 t4[8][TILE];
  int tx = threadIdx.x;
  int row = blockIdx.x * TILE + threadIdx.y;
  t2[threadIdx.y][tx] = in2[row * n + tx];
  if (threadIdx.y < 8) t4[threadIdx.y][tx] = in4[row * n + tx];
  __syncthreads();
  float2 a = t2[tx][threadIdx.y];  // expect: CL401
  float4 b = t4[tx % 8][threadIdx.y];  // expect: CL401
  out[row * n + tx] = a.x + a.y + b.x + b.w;
}

void run_column_vectors(const float2* in2, const float4* in4, float* out, int n) {
  dim3 block(TILE, TILE);
  column_vectors<<<n / TILE, block>>>(in2, in4, out, n);
}
