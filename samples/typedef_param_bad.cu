// The fill of typedef_param_good.cu with the row and column swapped: threadIdx.x
// now walks down a column, each lane `ld` floats from the next.
#include <cstdint>
typedef int32_t index_t;

__global__ void fill_rows(float* __restrict__ out, index_t rows, index_t cols, index_t ld) {
  const index_t col = blockIdx.y;
  const index_t row = blockIdx.x * blockDim.x + threadIdx.x;
  if (col < cols && row < rows) out[row * ld + col] = 1.0f;  // expect: CL101
}

void run_fill_rows(float* out, int rows, int cols, int ld) {
  fill_rows<<<dim3((rows + 255) / 256, cols), 256>>>(out, rows, cols, ld);
}
