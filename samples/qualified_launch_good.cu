// expect-clean
// A tiled transpose in a namespace, launched by its qualified name with its
// template arguments (`detail::transpose<float, 32><<<...>>>`): the launch gives
// the tile (32) and the block (32 x 32), so each thread owns one slot of the
// tile and the padded column read is free of bank conflicts.
namespace detail {
template <typename T, int TILE>
__global__ void transpose(const T* __restrict__ in, T* __restrict__ out, int rows, int cols) {
  __shared__ T tile[TILE][TILE + 1];
  const int x = blockIdx.x * TILE + threadIdx.x;
  const int y = blockIdx.y * TILE + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * TILE + threadIdx.x;
  const int oy = blockIdx.x * TILE + threadIdx.y;
  if (ox < rows && oy < cols) out[oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}
}  // namespace detail

void run_transpose(const float* in, float* out, int rows, int cols) {
  dim3 block(32, 32);
  dim3 grid((cols + 31) / 32, (rows + 31) / 32);
  detail::transpose<float, 32><<<grid, block>>>(in, out, rows, cols);
}
