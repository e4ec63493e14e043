// The program's own block is 16 x 16 (the command line may give another
// edge), but the shared tile is sized for 8 x 8: threads past the eighth row
// and column store outside it.
#include <cstdlib>
#define TILE 8

__global__ void mirror_rows(const float* in, float* out, int n)
{
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < n && y < n)
        tile[threadIdx.y][threadIdx.x] = in[y * n + x];  // expect: CL201, CL302
    __syncthreads();
    if (x < n && y < n)
        out[y * n + x] = tile[threadIdx.y][TILE - 1 - threadIdx.x];  // expect: CL201
}

int main(int argc, char** argv)
{
    int n = 4096;
    int edge = 16;
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
