// expect-clean
// The first 16 threads stage the table; the barrier after the if is reached by
// every thread of the block, so all of them read the finished table.
#define THREADS 128

__global__ void scale_by_table(const float* __restrict__ table, float* __restrict__ data, int n) {
  __shared__ float coeff[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x < 16)
    coeff[threadIdx.x] = table[threadIdx.x];
  __syncthreads();
  if (i < n)
    data[i] *= coeff[threadIdx.x % 16];
}

void run_scale_by_table(const float* table, float* data, int n) {
  scale_by_table<<<(n + THREADS - 1) / THREADS, THREADS>>>(table, data, n);
}
