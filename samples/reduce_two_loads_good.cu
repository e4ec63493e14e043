// expect-clean
// Block sum that adds two elements per thread while loading (cuda-samples
// reduce3/reduce6): each block covers 2 * blockSize elements, and the loads
// in[i] and in[i + blockSize] together fill that stride. The grid-stride loop
// keeps both loads, so every element of `in` is read once.
template <unsigned int blockSize>
__global__ void reduce_two_loads(const float* __restrict__ in, float* __restrict__ out, unsigned int n) {
  __shared__ float sdata[blockSize];
  unsigned int tid = threadIdx.x;
  unsigned int i = blockIdx.x * (blockSize * 2) + threadIdx.x;
  unsigned int gridSize = blockSize * 2 * gridDim.x;
  float sum = 0.0f;
  while (i < n) {
    sum += in[i];
    if (i + blockSize < n) sum += in[i + blockSize];
    i += gridSize;
  }
  sdata[tid] = sum;
  __syncthreads();
  for (unsigned int s = blockSize / 2; s > 0; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_two_loads(const float* in, float* out, unsigned int n) {
  reduce_two_loads<256><<<64, 256>>>(in, out, n);
}
