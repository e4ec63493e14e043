// expect-clean
// The block's height is a host variable of two values; each instance is launched in the branch
// that compares it to its own height, so in each launch the tile has one row per thread row.
template <int B_Y, int B_X>
__global__ void stage(float* out, const float* in)
{
    __shared__ float tile[B_Y][B_X];
    const int ty = threadIdx.y % B_Y;
    const int tx = threadIdx.x % B_X;
    const int base = blockIdx.x * B_Y * B_X;
    tile[ty][tx] = in[base + ty * B_X + tx];
    __syncthreads();
    out[base + ty * B_X + tx] = tile[ty][tx] + tile[ty][(tx + 1) % B_X];
}

void launch_stage(float* out, const float* in, int n, int colors)
{
    int threadsY = 4;
    if (colors > 3)
        threadsY = colors % 8 == 0 ? 8 : 4;
    dim3 threads(32, threadsY);
    if (threadsY == 4)
        stage<4, 32><<<n / 128, threads>>>(out, in);
    else
        stage<8, 32><<<n / 256, threads>>>(out, in);
}
