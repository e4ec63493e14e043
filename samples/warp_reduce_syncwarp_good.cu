// expect-clean
// The last-warp unrolling done right for independent thread scheduling: each
// step reads into a register, __syncwarp(), writes, __syncwarp(), so no lane
// reads a word another lane of the warp is writing in the same step.
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
    float x = sdata[tid] + sdata[tid + 32];
    __syncwarp();
    sdata[tid] = x;
    __syncwarp();
    for (int off = 16; off > 0; off >>= 1) {
      x += sdata[tid + off];
      __syncwarp();
      sdata[tid] = x;
      __syncwarp();
    }
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_last_warp(const float* in, float* out, int n) {
  reduce_last_warp<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
