// The accumulation of overload_by_type_good.cu whose `float2` overload sums
// both components into `a[0]`: the second slot of every record, `a[s]`, is
// never written, and half of the tile stays zero.
__device__ void accum(float* a, int s, float v, float w) { a[0] += v * w; }
__device__ void accum(float* a, int s, float2 v, float w) { a[0] += (v.x + v.y) * w; }  // expect: CL301

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
