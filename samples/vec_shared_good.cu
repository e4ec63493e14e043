// expect-clean
// float4 staging through an extern __shared__ buffer: each thread stores and
// loads one float4 of a row. A quarter-warp (8 lanes x 16 bytes) covers 32
// consecutive words, one per bank: no conflict in any of the 4 phases.
#define THREADS 128

__global__ void stage_float4(const float4* __restrict__ in, float4* __restrict__ out, int n) {
  extern __shared__ float smem[];
  float4* tile = reinterpret_cast<float4*>(smem);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) tile[threadIdx.x] = in[i];
  __syncthreads();
  float4 v = tile[(threadIdx.x + 1) % THREADS];
  float2 h = reinterpret_cast<float2*>(smem)[threadIdx.x];
  if (i < n) out[i] = make_float4(v.x + h.x, v.y + h.y, v.z, v.w);
}

void run_stage_float4(const float4* in, float4* out, int n) {
  stage_float4<<<(n + THREADS - 1) / THREADS, THREADS, THREADS * sizeof(float4)>>>(in, out, n);
}
