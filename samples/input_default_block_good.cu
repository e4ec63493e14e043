// expect-clean
// The block is TILE x TILE unless the command line gives another edge. The
// shared tile is sized for the program's own block, so every thread's
// element is inside it. cudalint analyses the launch at 8 x 8 and says that
// a run-time input may change it.
#include <cstdlib>
#define TILE 8

__global__ void mirror_rows(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];
    __syncthreads();
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.y][TILE - 1 - threadIdx.x];
}

int main(int argc, char** argv)
{
    int n = 4096;
    int edge = TILE;
    if (argc > 1)
        edge = atoi(argv[1]);
    float *a, *b;
    cudaMalloc(&a, n * n * sizeof(float));
    cudaMalloc(&b, n * n * sizeof(float));
    dim3 block(edge, edge);
    dim3 grid((n + edge - 1) / edge, (n + edge - 1) / edge);
    mirror_rows<<<grid, block>>>(a, b, n);
    return 0;
}
