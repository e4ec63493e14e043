// expect-clean
// Gradients accumulated per channel in shared memory, one slot per thread and
// channel component: `accum(a, s, v, w)` has one overload per vector width, and
// the `float2` one fills the record's two slots `a[0]` and `a[s]`. A call with
// a `float2` argument calls that overload (told apart by the argument's type,
// not by the count of arguments, which is the same), so every slot is filled.
__device__ void accum(float* a, int s, float v, float w) { a[0] += v * w; }
__device__ void accum(float* a, int s, float2 v, float w) { a[0] += v.x * w; a[s] += v.y * w; }

#define CHANNELS 40

template <class T, int C>
__device__ void gather(const T* __restrict__ in, float w) {
  __shared__ float acc[CHANNELS * C * 8 * 8];
  const int ofs = threadIdx.x + threadIdx.y * blockDim.x;
  const int stride = blockDim.x * blockDim.y;
  const int gid = blockIdx.x * stride + ofs;
  const T* p = in + gid;
  for (int i = 0; i < CHANNELS; i++) accum(acc + ofs + i * C * stride, stride, p[i * gridDim.x * stride], w);
  __syncthreads();
}

__global__ void gather2(const float2* __restrict__ in, float w) { gather<float2, 2>(in, w); }

void run_gather2(const float2* in, int blocks) {
  gather2<<<blocks, dim3(8, 8)>>>(in, 0.5f);
}
