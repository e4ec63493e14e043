// expect-clean
// A tile staged in shared memory with 16-byte vector stores: lane i stores
// elements 8i..8i+7 of the tile. For 2-byte elements (half, the width this
// library instantiates it with, from a launcher in another language) a lane's
// 16 bytes follow its neighbour's: no bank conflict. Only a 4-byte T would
// spread the lanes 32 bytes apart, and nothing here instantiates the kernel
// with one: the conflict would rest on a width cudalint chose.
template <typename T>
__global__ void stage(const T* __restrict__ in, T* __restrict__ out, int rows) {
  __shared__ __align__(16) T tile[64 * 16];
  for (int i = threadIdx.x; i < 64 * 16 / 8; i += blockDim.x) {
    int idx = i * 8;
    *reinterpret_cast<float4*>(&tile[idx]) = *reinterpret_cast<const float4*>(&in[blockIdx.x * 64 * 16 + idx]);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < 64 * 16; i += blockDim.x) out[blockIdx.x * 64 * 16 + i] = tile[i];
}

template <typename T>
void run_stage(const T* in, T* out, int rows) {
  stage<T><<<rows / 64, 128>>>(in, out, rows);
}
