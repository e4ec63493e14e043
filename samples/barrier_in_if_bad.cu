// The first 16 threads stage a small table in shared memory and then wait at a
// barrier that only they reach: the other threads of the block never arrive.
#define THREADS 128

__global__ void scale_by_table(const float* __restrict__ table, float* __restrict__ data, int n) {
  __shared__ float coeff[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 16) {
    coeff[threadIdx.x] = table[threadIdx.x];
    __syncthreads();  // expect: CL502
  }
  if (i < n)
    data[i] *= coeff[threadIdx.x % 16];
}

void run_scale_by_table(const float* table, float* data, int n) {
  scale_by_table<<<(n + THREADS - 1) / THREADS, THREADS>>>(table, data, n);
}
