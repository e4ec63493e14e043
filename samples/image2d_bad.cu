// RGBA -> grayscale whose early return only checks x. With height = 1000 the
// ceil-div grid has 1008 rows of threads; the bottom 8 rows of threads pass the
// check and read and write past the last image row.

__global__ void rgba_to_gray(const uchar4* __restrict__ rgba, float* __restrict__ gray,
                             int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width) return;
  uchar4 p = rgba[y * width + x];  // expect: CL202
  gray[y * width + x] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;  // expect: CL202
}

// cudalint: param width=1000 height=1000
void run_rgba_to_gray(const uchar4* rgba, float* gray, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  rgba_to_gray<<<grid, block>>>(rgba, gray, width, height);
}
