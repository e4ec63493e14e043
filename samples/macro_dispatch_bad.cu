// The same reduction dispatched by a chain of statement macros that test only that `planes` is
// at least N: NTX is 32 or 16, and where `planes` is no multiple of it, the threads of the last
// block past the end leave the loop early and skip the barriers the others wait at.
template <typename T, int NTX, int NTY>
__global__ void column_mean(const T* in, T* mean, int planes, int rows) {
  __shared__ T t[NTY][NTX];
  for (int plane = threadIdx.x + blockIdx.x * NTX; plane < planes; plane += gridDim.x * NTX) {
    T s = 0;
    for (int row = threadIdx.y; row < rows; row += NTY)
      s += in[row * planes + plane];
    t[threadIdx.y][threadIdx.x] = s;
    __syncthreads();  // expect: CL502
    if (threadIdx.y == 0) {
      T total = 0;
      for (int r = 0; r < NTY; r++) total += t[r][threadIdx.x];
      mean[plane] = total / rows;
    }
    __syncthreads();  // expect: CL502
  }
}

template <typename T, int NTX, int NTY>
void reduce_launch(const T* in, T* mean, int planes, int rows) {
  int blocks = planes / NTX < 16 ? planes / NTX : 16;
  column_mean<T, NTX, NTY><<<blocks, dim3(NTX, NTY)>>>(in, mean, planes, rows);
}

#define PICK(N)                                        \
  if (planes >= N) {                                    \
    reduce_launch<T, N, 32>(in, mean, planes, rows);   \
  }

template <typename T>
void column_means(const T* in, T* mean, int planes, int rows) {
  PICK(32) else PICK(16)
}
#undef PICK

template void column_means<float>(const float*, float*, int, int);
