// The launch's block is one of two shapes, as the host's flag goes: 8 rows of 32 threads for wide
// images, 16 for narrow ones. The staging tile has 4 rows: in either launch thread rows 0 and 4 store
// the same elements, each its own row of the input.
__global__ void stage_rows(float* __restrict__ out, const float* __restrict__ in, int width)
{
    __shared__ float tile[4][32];
    const int ty = threadIdx.y % 4, tx = threadIdx.x;
    const int base = blockIdx.x * 4 * 32;
    tile[ty][tx] = in[base + threadIdx.y * 32 + tx];  // expect: CL302
    __syncthreads();
    out[base + threadIdx.y * 32 + tx] = tile[ty][tx] + tile[ty][(tx + 1) % 32] * width;  // expect: CL301
}

void stage_rows_launch(float* out, const float* in, int n, int width)
{
    const bool wide = width >= 1024;
    dim3 threads(32, wide ? 8 : 16);
    stage_rows<<<n / 128, threads>>>(out, in, width);
}
