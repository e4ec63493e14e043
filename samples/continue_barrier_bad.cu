// A loop over rows where the upper half of the block skips the work with `continue` before the
// barrier: the threads that skip are still alive and meet the barrier of the next row while the
// others wait at this one, so the block's barriers no longer match up.
#define THREADS 256

__global__ void positive_scale(const float* __restrict__ in, float* __restrict__ out, int rows) {
  __shared__ float buf[THREADS];
  for (int r = 0; r < rows; ++r) {
    float v = in[(blockIdx.x * rows + r) * THREADS + threadIdx.x];
    if (threadIdx.x >= THREADS / 2) continue;
    buf[threadIdx.x] = v;
    __syncthreads();  // expect: CL502
    out[(blockIdx.x * rows + r) * THREADS + threadIdx.x] = buf[THREADS / 2 - 1 - threadIdx.x];
    __syncthreads();  // expect: CL502
  }
}

void run_positive_scale(const float* in, float* out) {
  positive_scale<<<64, THREADS>>>(in, out, 16);
}
