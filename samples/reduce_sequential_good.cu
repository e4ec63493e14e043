// expect-clean
// Block sum with sequential addressing: in step s thread tid reads sdata[tid]
// and sdata[tid + s]; consecutive lanes touch consecutive words (no conflict),
// and the barrier at the end of each step orders the next step's reads.
#define THREADS 256

__global__ void reduce_sequential(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_sequential(const float* in, float* out, int n) {
  reduce_sequential<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
