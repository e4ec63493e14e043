// A grid rounded by the rows a block writes, not by its threads: 128 threads make 32 output rows,
// four threads a row, and each thread ORs its share of the row's `tile` input words. The loop's
// `min(per, n - first)` keeps every read inside n; the grid `(rows - 1) / 32 + 1` rounds rows up by
// 32, which is no size the block's 128 threads were rounded from (no CL202). Each thread reads its
// own run of words, lanes `per` words apart, which CL101 reports.
#define THREADS 128
#define ROWS_PER_BLOCK 32

__global__ void __launch_bounds__(THREADS) or_rows(const int* __restrict__ in, int n, int rows, int tile,
                                                    int* __restrict__ out) {
  __shared__ int part[THREADS];
  int per = tile / 4;
  int first = blockIdx.x * THREADS * per + threadIdx.x * per;
  int len = min(per, n - first);
  int acc = 0;
  for (int i = 0; i < len; i++) acc |= in[first + i];  // expect: CL101
  part[threadIdx.x] = acc;
  __syncthreads();
  int row = blockIdx.x * ROWS_PER_BLOCK + threadIdx.x;
  if (threadIdx.x < ROWS_PER_BLOCK && row < rows) {
    int* p = part + threadIdx.x * 4;
    out[row] = p[0] | p[1] | p[2] | p[3];
  }
}

void run_or_rows(const int* in, int n, int tile, int* out) {
  int rows = (n - 1) / tile + 1;
  or_rows<<<(rows - 1) / ROWS_PER_BLOCK + 1, THREADS>>>(in, n, rows, tile, out);
}
