// expect-clean
// The same transpose with its sizes as an enum and a namespace's constexpr, the tile padded by
// one column: no bank conflict, and both global accesses are row-wise.
namespace cfg {
constexpr int TILE_DIM = 32;
}
enum { BLOCK_ROWS = 8 };

__global__ void transposeCoalesced(float* odata, const float* idata) {
  __shared__ float tile[cfg::TILE_DIM][cfg::TILE_DIM + 1];
  int x = blockIdx.x * cfg::TILE_DIM + threadIdx.x;
  int y = blockIdx.y * cfg::TILE_DIM + threadIdx.y;
  int width = gridDim.x * cfg::TILE_DIM;
  for (int j = 0; j < cfg::TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  x = blockIdx.y * cfg::TILE_DIM + threadIdx.x;
  y = blockIdx.x * cfg::TILE_DIM + threadIdx.y;
  for (int j = 0; j < cfg::TILE_DIM; j += BLOCK_ROWS)
    odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}

void run(float* d_odata, const float* d_idata) {
  const int nx = 1024, ny = 1024;
  dim3 dimGrid(nx / cfg::TILE_DIM, ny / cfg::TILE_DIM, 1);
  dim3 dimBlock(cfg::TILE_DIM, BLOCK_ROWS, 1);
  transposeCoalesced<<<dimGrid, dimBlock>>>(d_odata, d_idata);
}
