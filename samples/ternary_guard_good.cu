// expect-clean
// Block sum whose load is guarded by a ternary: the excess threads of the ceil-div grid load 0,
// not past the end of `in`.
#define THREADS 256

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = (i < n) ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// cudalint: param n=1000
void run_block_sum(const float* in, float* out, int n) {
  block_sum<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
