// The same block sum without the guard: the 24 excess threads of the last block read past the
// end of `in` (n = 1000 rounds up to 1024 threads).
#define THREADS 256

__global__ void block_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = in[i];  // expect: CL202
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
