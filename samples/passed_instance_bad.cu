// The launch helper of passed_instance_good.cu given `fill<3>`: each thread writes a record of
// three floats, lanes 12 bytes apart, three times the sectors a warp needs.
#include <cstdint>

template <typename K, typename... Types>
inline void linear_kernel(K kernel, uint32_t n, Types... args) {
  kernel<<<(n + 127) / 128, 128>>>(n, args...);
}

template <uint32_t STRIDE>
__global__ void fill(uint32_t n, float* __restrict__ out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (uint32_t k = 0; k < STRIDE; ++k) out[i * STRIDE + k] = 1.0f;  // expect: CL101
}

void fill_rgb(float* out, uint32_t n) { linear_kernel(fill<3>, n, out); }
