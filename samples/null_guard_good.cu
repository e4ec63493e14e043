// expect-clean
// A scan block that also writes its block total when the caller passes an array for it: only
// the last thread writes, under `sums != NULL && threadIdx.x == blockDim.x - 1`.
#define THREADS 256

__global__ void scan_block(float* data, float* sums) {
  __shared__ float buf[THREADS];
  int i = blockIdx.x * THREADS + threadIdx.x;
  buf[threadIdx.x] = data[i];
  __syncthreads();
  for (int off = 1; off < THREADS; off *= 2) {
    float v = threadIdx.x >= off ? buf[threadIdx.x - off] : 0.0f;
    __syncthreads();
    buf[threadIdx.x] += v;
    __syncthreads();
  }
  data[i] = buf[threadIdx.x];
  if (sums != NULL && threadIdx.x == blockDim.x - 1) sums[blockIdx.x] = buf[threadIdx.x];
}

void run_scan(float* data, float* sums) {
  scan_block<<<4096 / THREADS, THREADS>>>(data, sums);
}
