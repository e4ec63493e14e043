// expect-clean
// What the compiler does not build is not analysed: the `#if 0` block and the arm of `#ifdef`
// that is not taken hold accesses that would be findings, and BLOCK_SIZE is the `#else` arm's 16
// (RD_WG_SIZE is not defined), as the compiler sees it.
#ifdef RD_WG_SIZE
#define BLOCK_SIZE RD_WG_SIZE
#else
#define BLOCK_SIZE 16
#endif

__global__ void scale_tile(float* out, const float* in, int n) {
  __shared__ float tile[BLOCK_SIZE][BLOCK_SIZE];
  int row = blockIdx.y * BLOCK_SIZE + threadIdx.y;
  int col = blockIdx.x * BLOCK_SIZE + threadIdx.x;
#if 0
  // an old version, kept for reference: it read by column
  tile[threadIdx.y][threadIdx.x] = in[col * n + row];
#else
  tile[threadIdx.y][threadIdx.x] = in[row * n + col];
#endif
  __syncthreads();
  out[row * n + col] = 2.0f * tile[threadIdx.y][threadIdx.x];
}

void run(float* out, const float* in) {
  const int n = 4096;
  dim3 block(BLOCK_SIZE, BLOCK_SIZE);
  dim3 grid(n / BLOCK_SIZE, n / BLOCK_SIZE);
  scale_tile<<<grid, block>>>(out, in, n);
}
