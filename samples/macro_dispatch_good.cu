// A batch-norm style column reduction whose block width NTX is chosen on the host by a chain of
// statement macros: `PICK(32) else PICK(16)`, each `if (planes % N == 0) { reduce_launch<T, N, 32>(...); }`.
// The expansions are the host code: NTX is 32 or 16, and the launch only runs where `planes` is a
// multiple of it, so every thread of a block makes the same trips and reaches both barriers.
// expect-clean
template <typename T, int NTX, int NTY>
__global__ void column_mean(const T* in, T* mean, int planes, int rows) {
  __shared__ T t[NTY][NTX];
  for (int plane = threadIdx.x + blockIdx.x * NTX; plane < planes; plane += gridDim.x * NTX) {
    T s = 0;
    for (int row = threadIdx.y; row < rows; row += NTY)
      s += in[row * planes + plane];
    t[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0) {
      T total = 0;
      for (int r = 0; r < NTY; r++) total += t[r][threadIdx.x];
      mean[plane] = total / rows;
    }
    __syncthreads();
  }
}

template <typename T, int NTX, int NTY>
void reduce_launch(const T* in, T* mean, int planes, int rows) {
  int blocks = planes / NTX < 16 ? planes / NTX : 16;
  column_mean<T, NTX, NTY><<<blocks, dim3(NTX, NTY)>>>(in, mean, planes, rows);
}

#define PICK(N)                                        \
  if (planes % N == 0) {                               \
    reduce_launch<T, N, 32>(in, mean, planes, rows);   \
  }

template <typename T>
void column_means(const T* in, T* mean, int planes, int rows) {
  PICK(32) else PICK(16)
}
#undef PICK

template void column_means<float>(const float*, float*, int, int);
