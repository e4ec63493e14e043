// The block's height is a host variable of two values, and the branch that compares it to 8
// launches the instance for 4 rows: thread rows 4 to 7 store their own input rows into the tile
// slots rows 0 to 3 store theirs, and which row survives is unspecified.
template <int B_Y, int B_X>
__global__ void stage(float* out, const float* in)
{
    __shared__ float tile[B_Y][B_X];
    const int ty = threadIdx.y % B_Y;
    const int tx = threadIdx.x % B_X;
    const int base = blockIdx.x * B_Y * B_X;
    tile[ty][tx] = in[base + threadIdx.y * B_X + tx];  // expect: CL302
    __syncthreads();
    out[base + ty * B_X + tx] = tile[ty][tx] + tile[ty][(tx + 1) % B_X];
}

void launch_stage(float* out, const float* in, int n, int colors)
{
    int threadsY = 4;
    if (colors > 3)
        threadsY = colors % 8 == 0 ? 8 : 4;
    dim3 threads(32, threadsY);
    if (threadsY == 8)
        stage<4, 32><<<n / 128, threads>>>(out, in);
    else
        stage<8, 32><<<n / 256, threads>>>(out, in);
}
