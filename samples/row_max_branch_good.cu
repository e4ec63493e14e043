// expect-clean
// Every lane of a row of the block scans the row's staged values and keeps the largest with
// `if (m < v) m = v;`: the test and the value follow the row alone (threadIdx.y), so the 32
// lanes of a row compute one maximum, and their stores of it to the row's slot lose nothing.
#define ROWS 8
#define COLS 32

__global__ void row_max(const float *in, float *out, int n_tiles)
{
    __shared__ float tile[ROWS][COLS];
    float m = -1e30f;
    for (int t = 0; t < n_tiles; t++) {
        tile[threadIdx.y][threadIdx.x] = in[(t * ROWS + threadIdx.y) * COLS + threadIdx.x];
        __syncthreads();
        for (int j = 0; j < COLS; j++)
            if (m < tile[threadIdx.y][j]) m = tile[threadIdx.y][j];
        __syncthreads();
    }
    out[blockIdx.x * ROWS + threadIdx.y] = m;
}

void run_row_max(const float *in, float *out, int n_tiles, int blocks)
{
    row_max<<<blocks, dim3(COLS, ROWS)>>>(in, out, n_tiles);
}
