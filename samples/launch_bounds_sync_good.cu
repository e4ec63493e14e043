// expect-clean
// A batch loop staged through shared memory, written for any block size: a
// block of one warp needs only __syncwarp(), a bigger one __syncthreads().
// `__launch_bounds__(CTA_SIZE)` says no launch runs more than CTA_SIZE threads,
// so a block of 256 threads runs CTA_SIZE >= 256 and takes __syncthreads().
template <unsigned CTA_SIZE>
__global__ void __launch_bounds__(CTA_SIZE) batch_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float batch[CTA_SIZE];
  const unsigned tid = threadIdx.x;
  float acc = 0.f;
  for (int b = 0; b < n; b += CTA_SIZE) {
    batch[tid] = b + tid < n ? in[b + tid] : 0.f;
    if constexpr (CTA_SIZE <= 32) {
      __syncwarp();
    } else {
      __syncthreads();
    }
    for (unsigned t = 0; t < CTA_SIZE; ++t) acc += batch[t];
    __syncthreads();
  }
  out[blockIdx.x * CTA_SIZE + tid] = acc;
}

template <unsigned CTA_SIZE>
void run_batch_sum(const float* in, float* out, int n, int blocks) {
  batch_sum<CTA_SIZE><<<blocks, CTA_SIZE>>>(in, out, n);
}
