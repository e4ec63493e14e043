// The staging of open_row_banks_good.cu where the program fixes the row at 4
// floats: lanes are 4 words apart and every eighth lane meets on a bank.
__global__ void stage_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int width) {
  extern __shared__ float rowbuf[];
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    for (int c = 0; c < width; ++c) rowbuf[threadIdx.x * width + c] = in[c * rows + r];  // expect: CL401
  }
  __syncthreads();
  for (int i = threadIdx.x; i < blockDim.x * width; i += blockDim.x) {
    if (blockIdx.x * blockDim.x * width + i < rows * width) out[blockIdx.x * blockDim.x * width + i] = rowbuf[i];
  }
}

void run_stage_rows(const float* in, float* out, int rows) {
  stage_rows<<<(rows + 127) / 128, 128, 128 * 4 * sizeof(float)>>>(in, out, rows, 4);
}
