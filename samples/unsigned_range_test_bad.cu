// The same edges with the row's test written on signed numbers: threads 33..64 give a negative
// `threadIdx.x - 65`, which is below N, so they pass it too: they store before the tile's first row,
// and thread 64 stores the corner thread 0 stores.
#define N 32

__global__ void edges(const float* __restrict__ col, const float* __restrict__ row, float* __restrict__ out)
{
    __shared__ float tile[N + 1][N + 1];
    if (threadIdx.x <= N) {
        tile[threadIdx.x][0] = col[threadIdx.x];
    } else if ((int)threadIdx.x - 65 < N) {
        int t = (int)threadIdx.x - 65;
        tile[0][t + 1] = row[t];  // expect: CL201, CL501
    }
    __syncthreads();
    if (threadIdx.x <= N)
        out[threadIdx.x] = tile[threadIdx.x][0] + tile[0][threadIdx.x];
}

void run_edges(const float* col, const float* row, float* out)
{
    edges<<<1, 128>>>(col, row, out);
}
