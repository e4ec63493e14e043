// expect-clean
// RGBA -> grayscale on a 2D grid of 16x16 blocks. Excess threads on the right
// and bottom edges leave through an early return before touching memory.

__global__ void rgba_to_gray(const uchar4* __restrict__ rgba, float* __restrict__ gray,
                             int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  uchar4 p = rgba[y * width + x];
  gray[y * width + x] = 0.299f * p.x + 0.587f * p.y + 0.114f * p.z;
}

void run_rgba_to_gray(const uchar4* rgba, float* gray, int width, int height) {
  dim3 block(16, 16);
  dim3 grid((width + block.x - 1) / block.x, (height + block.y - 1) / block.y);
  rgba_to_gray<<<grid, block>>>(rgba, gray, width, height);
}
