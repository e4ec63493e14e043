// expect-clean
// A tiled matrix product: the outer loop walks the tiles of an n-wide
// matrix (how many depends on n, which the program does not give), and the
// inner loop reads one row of one tile and one column of the other,
// e = 0 .. TILE - 1, inside the tiles whatever n is.
#define TILE 16

__global__ void matmul(const float* A, const float* B, float* C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int m = 0; m < n / TILE; ++m)
    {
        As[threadIdx.y][threadIdx.x] = A[row * n + m * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(m * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int e = 0; e < TILE; ++e)
            acc += As[threadIdx.y][e] * Bs[e][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

void run(const float* A, const float* B, float* C, int n)
{
    dim3 block(TILE, TILE);
    dim3 grid(n / TILE, n / TILE);
    matmul<<<grid, block>>>(A, B, C, n);
}
