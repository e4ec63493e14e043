// The transpose of qualified_launch_good.cu without the tile's padding column:
// the column read `tile[threadIdx.x][threadIdx.y]` puts the 32 lanes of a warp
// 32 words apart, all on one bank.
namespace detail {
template <typename T, int TILE>
__global__ void transpose(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  __shared__ T tile[TILE][TILE];
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x;
  const int oy = blockIdx.x * TILE + threadIdx.y;
  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];  // expect: CL401
}
}  // namespace detail

void run_transpose(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 32);
  dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  detail::transpose<float, 32><<<grid, block>>>(in, out, rows, cols);
}
