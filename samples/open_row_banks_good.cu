// expect-clean
// Each thread stages its output row of `width` floats in shared memory before
// the block writes them out. Lanes are `width` words apart: an even width puts
// several lanes on one bank, an odd one none. The program passes a width read
// from a tensor's shape, which nothing here fixes: the conflict is a condition
// on it (shown with --show-uncertain), not a finding.
__global__ void stage_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int width) {
  extern __shared__ float rowbuf[];
  const int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < rows) {
    for (int c = 0; c < width; ++c) rowbuf[threadIdx.x * width + c] = in[c * rows + r];
  }
  __syncthreads();
  for (int i = threadIdx.x; i < blockDim.x * width; i += blockDim.x) {
    if (blockIdx.x * blockDim.x * width + i < rows * width) out[blockIdx.x * blockDim.x * width + i] = rowbuf[i];
  }
}

void run_stage_rows(const float* in, float* out, int rows, int width) {
  stage_rows<<<(rows + 127) / 128, 128, 128 * width * sizeof(float)>>>(in, out, rows, width);
}
