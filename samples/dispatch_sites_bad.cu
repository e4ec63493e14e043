// A launcher that makes each block one row wide, dispatching on the row width: the case for 256
// instantiates the kernel for 128. Its first launch (64) is right; the 256 one writes threads
// 128 to 255 past the tile. Every launch the program makes is read, not only the first.
template <int BLOCK>
__global__ void row_scale_sum(const float* __restrict__ in, const float* __restrict__ weight,
                              float* __restrict__ out, int channels, int rows)
{
    __shared__ float part[BLOCK];
    const int index = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = index / channels;   // the block's row: the block is `channels` wide
    if (row >= rows) return;
    part[threadIdx.x] = in[index] * weight[row];  // expect: CL201
    __syncthreads();
    for (int s = BLOCK / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[row] = part[0];
}

void row_scale_sum_launch(const float* in, const float* weight, float* out, int channels, int rows)
{
    const int threads = channels > 1024 ? 1024 : channels;
    if (channels > 1024) return;
    switch (channels) {
    case 64:
        row_scale_sum<64><<<rows, threads>>>(in, weight, out, channels, rows);
        break;
    case 256:
        row_scale_sum<128><<<rows, threads>>>(in, weight, out, channels, rows);
        break;
    case 1024:
        row_scale_sum<1024><<<rows, threads>>>(in, weight, out, channels, rows);
        break;
    }
}
