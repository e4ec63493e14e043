// expect-clean
// A tiled kernel whose template parameters carry comments, commas and all, as
// tuned kernels document their tile shapes: the parameters are `kTileM` and
// `kPad`, whatever the comments between them say, and the launch's arguments
// bind them (a padded 32 x 33 tile: its column read has no bank conflict).
template <const int kTileM,  // 32, rows of a tile, Br = 32
          const int kPad>    // 1, padding, keeps columns on distinct banks
__global__ void column_sums(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[kTileM][kTileM + kPad];
  const int x = blockIdx.x * kTileM + threadIdx.x;
  for (int r = threadIdx.y; r < kTileM; r += blockDim.y)
    tile[r][threadIdx.x] = x < n ? in[(blockIdx.y * kTileM + r) * n + x] : 0.f;
  __syncthreads();
  if (threadIdx.y == 0) {
    float s = 0.f;
    for (int c = 0; c < kTileM; ++c) s += tile[threadIdx.x][c];
    out[blockIdx.y * n + blockIdx.x * kTileM + threadIdx.x] = s;
  }
}

void run_column_sums(const float* in, float* out, int n) {
  column_sums<32, 1><<<dim3(n / 32, n / 32), dim3(32, 8)>>>(in, out, n);
}
