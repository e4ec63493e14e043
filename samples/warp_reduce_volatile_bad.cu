// The last-warp unrolling of the classic block reduction, written for lockstep
// warps: a volatile pointer and no barrier. Since Volta the lanes of a warp are
// scheduled independently, so lane 0 can read sdata[16] before or after lane 16
// has added sdata[32] into it.
#define THREADS 256

__global__ void reduce_last_warp(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float* vs = sdata;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];  // expect: CL501
    vs[tid] += vs[tid + 8];  // expect: CL501
    vs[tid] += vs[tid + 4];  // expect: CL501
    vs[tid] += vs[tid + 2];  // expect: CL501
    vs[tid] += vs[tid + 1];  // expect: CL501
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_last_warp(const float* in, float* out, int n) {
  reduce_last_warp<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
