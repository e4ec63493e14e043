// The same tile filled one column too far (`k <= TILE`): the last pass of the unrolled inner
// loop stores past each row of the 4 x 4 tile.
#define TILE 4

__global__ void tile_sum(const float *in, float *out, int n)
{
    float acc[TILE][TILE];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    for (int j = 0; j < TILE; ++j)
#pragma unroll
        for (int k = 0; k <= TILE; ++k)
            acc[j][k] = in[j * n + t] * k;     // row j of TILE rows of n  // expect: CL201
    float s = 0.0f;
    for (int j = 0; j < TILE; ++j)
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            s += acc[j][k];
    out[t] = s;
}

void run_tile_sum(const float *in, float *out, int n)
{
    tile_sum<<<(n + 127) / 128, 128>>>(in, out, n);
}
