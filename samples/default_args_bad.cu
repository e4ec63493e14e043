// The same helper called with lanes = 64 and share_result = true: threads 32..63 store while
// threads 0..31 still read those slots, with no barrier between.
template <typename T>
__device__ T reduce_lanes(T* x, T val, int lanes = 1, bool share_result = false) {
  int tid = threadIdx.x;
  x[tid] = val;
  __syncthreads();
  for (int i = blockDim.x >> 1; i >= 64; i >>= 1) {
    if (tid < i) x[tid] = x[tid] + x[tid + i];
    __syncthreads();
  }
  T final = val;
  if (tid < 32) final = x[tid] + x[tid + 32];  // expect: CL501
  if (share_result) {
    if (tid < lanes) x[tid] = final;
  }
  __syncthreads();
  return final;
}
__global__ void total(const float* in, float* out) {
  __shared__ float vals[512];
  float v = in[blockIdx.x * 512 + threadIdx.x];
  float s = reduce_lanes(vals, v, 64, true);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
void run(const float* in, float* out, int n) { total<<<n / 512, 512>>>(in, out); }
