// A kernel launched through a host wrapper, as libraries do (kaldi's cu-kernels.cu): the launch's
// grid and block are the wrapper's parameters, and rows_caller.cc, a C++ file that calls the
// wrapper, gives them: 16 x 16 threads a block. cudalint reads that file as host context (never
// linted): `row` comes from threadIdx.x, so neighbouring lanes are a row apart.
__global__ void copy_rows(float* out, const float* in, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    out[row * cols + col] = in[row * cols + col];  // expect: CL102
}

void cuda_copy_rows(dim3 Gr, dim3 Bl, float* out, const float* in, int rows, int cols) {
  copy_rows<<<Gr, Bl>>>(out, in, rows, cols);
}
