// The same store after a __shfl_down_sync tree: only lane 0 holds the total, the other lanes
// hold partial sums, and all 32 of them store to the warp's slot.
__device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
  return v;
}

__global__ void row_sums(const float* in, float* out, int C) {
  __shared__ float sums[32];
  float s = 0.0f;
  for (int i = threadIdx.x; i < C; i += blockDim.x) s += in[blockIdx.x * C + i];
  float w = warp_sum(s);
  sums[threadIdx.x / 32] = w;  // expect: CL302
  __syncthreads();
  if (threadIdx.x == 0) {
    float t = 0.0f;
    for (int k = 0; k < blockDim.x / 32; ++k) t += sums[k];
    out[blockIdx.x] = t;
  }
}

void run(const float* in, float* out) { row_sums<<<4096, 256>>>(in, out, 4096); }
