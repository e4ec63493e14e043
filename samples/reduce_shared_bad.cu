// Block sum reduction whose shared buffer was sized for 128 threads while the
// launch uses 256: sdata[tid] and, in the first step, sdata[tid + s] run past
// the end of the 128-element array.
#define SMEM_SIZE 128
#define THREADS 256

__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[SMEM_SIZE];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[tid] = v;  // expect: CL201
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];  // expect: CL201
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_sum(const float* in, float* out, int n) {
  reduce_sum<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
