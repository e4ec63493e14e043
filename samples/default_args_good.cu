// A block reduction helper whose lanes and share_result parameters default to 1 and false: the
// call that leaves them out never runs the shared store, so nothing races with the last read.
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
  if (tid < 32) final = x[tid] + x[tid + 32];  // expect-clean
  if (share_result) {
    if (tid < lanes) x[tid] = final;
  }
  __syncthreads();
  return final;
}
__global__ void total(const float* in, float* out) {
  __shared__ float vals[512];
  float v = in[blockIdx.x * 512 + threadIdx.x];
  float s = reduce_lanes(vals, v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
void run(const float* in, float* out, int n) { total<<<n / 512, 512>>>(in, out); }
