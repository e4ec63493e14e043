// expect-clean
// Two kernel templates of one name: one pads from a buffer of the target type,
// the other from 8-bit pixels. The launcher passes its 8-bit source, so the
// call deduces T from the target alone and runs the second overload, whose
// row-major store is coalesced; the first, with its transposed store, is not
// what the program runs.
template <typename T>
__global__ void pad_image(T* dst, const T* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[x * h + y] = src[y * w + x];
}

template <typename T>
__global__ void pad_image(T* dst, const unsigned char* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[y * w + x] = T(src[y * w + x]) / T(255);
}

template <typename T>
void pad_from_pixels(T* dst, const unsigned char* src, int w, int h) {
  const dim3 block(32, 8), grid((w + 31) / 32, (h + 7) / 8);
  pad_image<<<grid, block>>>(dst, src, w, h);
}

template void pad_from_pixels(float* dst, const unsigned char* src, int w, int h);
