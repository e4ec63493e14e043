// expect-clean
// Two groups of threads fill the two edges of a tile: threads 0..32 its first column, threads
// 65..96 the rest of its first row. The row's test casts `threadIdx.x - 65` to unsigned, so the
// threads below 65 wrap to large numbers and fail it: t stays within 0..31.
#define N 32

__global__ void edges(const float* __restrict__ col, const float* __restrict__ row, float* __restrict__ out)
{
    __shared__ float tile[N + 1][N + 1];
    if (threadIdx.x <= N) {
        tile[threadIdx.x][0] = col[threadIdx.x];
    } else if ((unsigned)((int)threadIdx.x - 65) < (unsigned)N) {
        int t = (int)threadIdx.x - 65;
        tile[0][t + 1] = row[t];
    }
    __syncthreads();
    if (threadIdx.x <= N)
        out[threadIdx.x] = tile[threadIdx.x][0] + tile[0][threadIdx.x];
}

void run_edges(const float* col, const float* row, float* out)
{
    edges<<<1, 128>>>(col, row, out);
}
