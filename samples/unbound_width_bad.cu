// The staging of unbound_width_good.cu reading its tile back down a column:
// lane i reads element 32i, 64 bytes apart for 2-byte elements and 128 for
// 4-byte ones. At either width many lanes read one bank: the conflict holds
// whatever T the library instantiates.
template <typename T>
__global__ void stage(const T* __restrict__ in, T* __restrict__ out, int rows) {
  __shared__ __align__(16) T tile[64 * 16];
  for (int i = threadIdx.x; i < 64 * 16 / 8; i += blockDim.x) {
    int idx = i * 8;
    *reinterpret_cast<float4*>(&tile[idx]) = *reinterpret_cast<const float4*>(&in[blockIdx.x * 64 * 16 + idx]);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 32; i += blockDim.x) out[blockIdx.x * 32 + i] = tile[i * 32];  // expect: CL401
}

template <typename T>
void run_stage(const T* in, T* out, int rows) {
  stage<T><<<rows / 64, 128>>>(in, out, rows);
}
