// expect-clean
// Subtract the block mean: thread 0 publishes the mean in a __shared__ scalar
// and a barrier makes it visible to every thread of the block before they read.
#define THREADS 256

__global__ void subtract_block_mean(float* __restrict__ data, int n) {
  __shared__ float sdata[THREADS];
  __shared__ float mean;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = data[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) mean = sdata[0] / THREADS;
  __syncthreads();
  if (i < n) data[i] = v - mean;
}

void run_subtract_block_mean(float* data, int n) {
  subtract_block_mean<<<(n + THREADS - 1) / THREADS, THREADS>>>(data, n);
}
