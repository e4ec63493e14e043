// The overloads of overload_by_deduction_good.cu where the launcher passes a
// source of the target type: the call deduces T from both pointers and runs
// the first overload, whose store walks the target by columns.
template <typename T>
__global__ void pad_image(T* dst, const T* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[x * h + y] = src[y * w + x];  // expect: CL102
}

template <typename T>
__global__ void pad_image(T* dst, const unsigned char* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[y * w + x] = T(src[y * w + x]) / T(255);
}

template <typename T>
void pad_from_pixels(T* dst, const T* src, int w, int h) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  pad_image<<<grid, block>>>(dst, src, w, h);
}

template void pad_from_pixels(float* dst, const float* src, int w, int h);
