// The kernel of kernel_macro_good.cu with threadIdx.x on the row: each lane of
// a warp reads and writes `cols` floats from its neighbour.
#define LIB_KERNEL static __global__ void

LIB_KERNEL scale_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, float a) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int col = blockIdx.y;
  if (row < rows && col < cols) out[row * cols + col] = a * in[row * cols + col];  // expect: CL101
}

void run_scale_rows(const float* in, float* out, int rows, int cols) {
  scale_rows<<<dim3((rows + 127) / 128, cols), 128>>>(in, out, rows, cols, 2.0f);
}
