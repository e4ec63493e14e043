// expect-clean
// A register tile cleared and filled by two nested loops, the inner one unrolled with a
// `#pragma unroll` written between the outer loop's head and its (unbraced) body, as hand-tuned
// kernels often do. The inner loop is the outer loop's body: j runs 0..3 for every k, and every
// index stays inside the 4 x 4 tile.
#define TILE 4

__global__ void tile_sum(const float *in, float *out, int n)
{
    float acc[TILE][TILE];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= n) return;
    for (int j = 0; j < TILE; ++j)
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc[j][k] = in[j * n + t] * k;     // row j of TILE rows of n
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
