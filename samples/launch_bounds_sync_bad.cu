// The kernel of launch_bounds_sync_good.cu with the test turned the wrong way:
// blocks of more than one warp take __syncwarp(), which orders one warp only,
// and thread 32 reads batch slots that warp 0 is still writing.
template <unsigned CTA_SIZE>
__global__ void __launch_bounds__(CTA_SIZE) batch_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float batch[CTA_SIZE];
  const unsigned tid = threadIdx.x;
  float acc = 0.f;
  for (int b = 0; b < n; b += CTA_SIZE) {
    batch[tid] = b + tid < n ? in[b + tid] : 0.f;
    if constexpr (CTA_SIZE > 32) {
      __syncwarp();
    } else {
      __syncthreads();
    }
    for (unsigned t = 0; t < CTA_SIZE; ++t) acc += batch[t];  // expect: CL501
    __syncthreads();
  }
  out[blockIdx.x * CTA_SIZE + tid] = acc;
}

template <unsigned CTA_SIZE>
void run_batch_sum(const float* in, float* out, int n, int blocks) {
  batch_sum<CTA_SIZE><<<blocks, CTA_SIZE>>>(in, out, n);
}
