// The same dispatch picking the tile width by size alone (`ncols >= 256`): a column count that is
// no multiple of the width leaves the last block's threads past it out of the loop's last pass,
// while the others wait at its barriers.
template <int TX, int TY>
__global__ void col_mean(const float *in, float *out, int ncols, int nrows)
{
    __shared__ float part[TY][TX];
    for (int c = blockIdx.x * TX + threadIdx.x; c < ncols; c += gridDim.x * TX) {
        float s = 0.f;
        for (int r = threadIdx.y; r < nrows; r += TY)
            s += in[r * ncols + c];
        part[threadIdx.y][threadIdx.x] = s;
        __syncthreads();  // expect: CL502
        if (threadIdx.y == 0) {
            float t = 0.f;
            for (int k = 0; k < TY; ++k)
                t += part[k][threadIdx.x];
            out[c] = t / nrows;
        }
        __syncthreads();  // expect: CL502
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
    if (ncols >= 256)
        launch_col_mean<16>(in, out, ncols, nrows);
    else
        launch_col_mean<8>(in, out, ncols, nrows);
}
