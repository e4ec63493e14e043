// expect-clean
// A kernel template handed to a launch helper as an instance (`linear_kernel(fill<1>, ...)`): the
// helper launches whatever kernel it is given, and the instance passed says the template's value.
// With STRIDE = 1 each thread writes one float, lanes 4 bytes apart: coalesced.
#include <cstdint>

template <typename K, typename... Types>
inline void linear_kernel(K kernel, uint32_t n, Types... args) {
  kernel<<<(n + 127) / 128, 128>>>(n, args...);
}

template <uint32_t STRIDE>
__global__ void fill(uint32_t n, float* __restrict__ out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (uint32_t k = 0; k < STRIDE; ++k) out[i * STRIDE + k] = 1.0f;
}

void fill_all(float* out, uint32_t n) { linear_kernel(fill<1>, n, out); }
