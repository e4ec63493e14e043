// expect-clean
// Column means with barriers inside a loop over columns. The host picks the tile width from the
// column count, and launches the 16-wide instance only where ncols is a multiple of 16 and the
// 8-wide one only where it is a multiple of 8: every thread of a block runs the loop as many times
// as the others, and every barrier is reached by the whole block.
template <int TX, int TY>
__global__ void col_mean(const float *in, float *out, int ncols, int nrows)
{
    __shared__ float part[TY][TX];
    for (int c = blockIdx.x * TX + threadIdx.x; c < ncols; c += gridDim.x * TX) {
        float s = 0.f;
        for (int r = threadIdx.y; r < nrows; r += TY)
            s += in[r * ncols + c];
        part[threadIdx.y][threadIdx.x] = s;
        __syncthreads();
        if (threadIdx.y == 0) {
            float t = 0.f;
            for (int k = 0; k < TY; ++k)
                t += part[k][threadIdx.x];
            out[c] = t / nrows;
        }
        __syncthreads();
    }
}

template <int TX>
static void launch_col_mean(const float *in, float *out, int ncols, int nrows)
{
    int blocks = ncols / TX < 16 ? ncols / TX : 16;
    col_mean<TX, 32><<<blocks, dim3(TX, 32)>>>(in, out, ncols, nrows);
}

void col_mean_host(const float *in, float *out, int ncols, int nrows)
{
    if (ncols % 16 == 0)
        launch_col_mean<16>(in, out, ncols, nrows);
    else if (ncols % 8 == 0)
        launch_col_mean<8>(in, out, ncols, nrows);
}
