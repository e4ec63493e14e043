// expect-clean
// Sizes passed under the project's own integer alias (`typedef int32_t
// index_t;`), as libraries with a C interface to their kernels do: the
// parameters are integers all the same, and the row read `out[row * ld + col]`
// with threadIdx.x on `col` is coalesced.
#include <cstdint>
typedef int32_t index_t;

__global__ void fill_rows(float* __restrict__ out, index_t rows, index_t cols, index_t ld) {
  const index_t col = blockIdx.x * blockDim.x + threadIdx.x;
  const index_t row = blockIdx.y;
  if (col < cols && row < rows) out[row * ld + col] = 1.0f;
}

void run_fill_rows(float* out, int rows, int cols, int ld) {
  fill_rows<<<dim3((cols + 255) / 256, rows), 256>>>(out, rows, cols, ld);
}
