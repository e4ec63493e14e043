// Four elements per thread while loading, but the unrolled load of
// in[i + 3 * blockSize] was dropped: each block steps 4 * blockSize elements
// and its three loads reach only 3 * blockSize of them, so a quarter of the
// input never enters the sum. Fix: add the fourth load, or step
// 3 * blockSize (reduce_two_loads_good.cu steps 2 * blockSize with two loads).
// cudalint: param n=1048576
template <unsigned int blockSize>
__global__ void reduce_four_loads(const float* __restrict__ in, float* __restrict__ out, unsigned int n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 4) + threadIdx.x;
  float sum = 0.0f;
  if (i + 3 * blockSize < n) {
    sum = in[i] + in[i + blockSize] + in[i + 2 * blockSize];  // expect: CL301
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_four_loads(const float* in, float* out, unsigned int n) {
  reduce_four_loads<256><<<(n + 1023) / 1024, 256>>>(in, out, n);
}
