// The same scan keeping the largest of the lane's own column (`tile[threadIdx.y][threadIdx.x]`):
// each lane's maximum is its own, and the 32 lanes store 32 values to the row's one slot.
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
            if (m < tile[threadIdx.y][threadIdx.x] + j) m = tile[threadIdx.y][threadIdx.x] + j;
        __syncthreads();
    }
    out[blockIdx.x * ROWS + threadIdx.y] = m;  // expect: CL302
}

void run_row_max(const float *in, float *out, int n_tiles, int blocks)
{
    row_max<<<blocks, dim3(COLS, ROWS)>>>(in, out, n_tiles);
}
