// expect-clean
// The launch's block is one of two shapes, as the host's flag goes: 4 rows of 32 threads for wide
// images, 2 for narrow ones. The kernel's staging tile has 4 rows, one per thread row at most, so
// no two threads store one element in either launch.
__global__ void stage_rows(float* __restrict__ out, const float* __restrict__ in, int width)
{
    __shared__ float tile[4][32];
    const int ty = threadIdx.y % 4, tx = threadIdx.x;
    const int base = blockIdx.x * 4 * 32;
    tile[ty][tx] = in[base + ty * 32 + tx];
    __syncthreads();
    out[base + ty * 32 + tx] = tile[ty][tx] + tile[ty][(tx + 1) % 32] * width;
}

void stage_rows_launch(float* out, const float* in, int n, int width)
{
    const bool wide = width >= 1024;
    dim3 threads(32, wide ? 4 : 2);
    stage_rows<<<n / 128, threads>>>(out, in, width);
}
