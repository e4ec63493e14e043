// expect-clean
// The same crop kernel over bytes launched in blocks of 32 x 8 threads: each warp is one row of
// 32 consecutive bytes, one sector per request (T is uint8_t, the type of the host template's one
// instantiation).
#include <stdint.h>

template <typename T>
__global__ void crop(const T *input, T *output, int offX, int offY, int inW, int outW, int outH)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= outW || y >= outH)
        return;
    output[y * outW + x] = input[(y + offY) * inW + x + offX];
}

template <typename T>
static void launch_crop(const T *in, T *out, int offX, int offY, int inW, int outW, int outH)
{
    const dim3 block(32, 8);
    const dim3 grid((outW + 31) / 32, (outH + 7) / 8);
    crop<T><<<grid, block>>>(in, out, offX, offY, inW, outW, outH);
}

void crop_u8(const uint8_t *in, uint8_t *out, int w, int h)
{
    launch_crop<uint8_t>(in, out, 0, 0, w, w, h);
}
