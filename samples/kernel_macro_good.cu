// expect-clean
// Kernels declared through the library's qualifier macro, as header-only
// libraries do (`#define LIB_KERNEL static __global__ void`): they are kernels
// all the same. This one reads and writes its rows with threadIdx.x on the
// column: coalesced.
#define LIB_KERNEL static __global__ void

LIB_KERNEL scale_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, float a) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = a * in[row * cols + col];
}

void run_scale_rows(const float* in, float* out, int rows, int cols) {
  scale_rows<<<dim3((cols + 127) / 128, rows), 128>>>(in, out, rows, cols, 2.0f);
}
