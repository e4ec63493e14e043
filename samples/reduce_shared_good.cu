// expect-clean
// Block sum reduction with sequential addressing in shared memory: the active
// half of the block reads the other half (tid + s stays below blockDim.x).
// One partial sum per block is written to out[blockIdx.x].
#define BLOCK_SIZE 256

__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[BLOCK_SIZE];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_sum(const float* in, float* out, int n) {
  reduce_sum<<<(n + BLOCK_SIZE - 1) / BLOCK_SIZE, BLOCK_SIZE>>>(in, out, n);
}
