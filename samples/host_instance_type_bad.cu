// A crop kernel over bytes, launched by a host template whose instantiation for uint8_t is the
// only one the program makes: the kernel's T is uint8_t. Blocks of 8 x 8 threads put four rows
// of 8 bytes in each warp: 4 sectors per request where one would do.
#include <stdint.h>

template <typename T>
__global__ void crop(const T *input, T *output, int offX, int offY, int inW, int outW, int outH)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= outW || y >= outH)
        return;
    output[y * outW + x] = input[(y + offY) * inW + x + offX];   // expect: CL101
}

template <typename T>
static void launch_crop(const T *in, T *out, int offX, int offY, int inW, int outW, int outH)
{
    const dim3 block(8, 8);
    const dim3 grid((outW + 7) / 8, (outH + 7) / 8);
    crop<T><<<grid, block>>>(in, out, offX, offY, inW, outW, outH);
}

void crop_u8(const uint8_t *in, uint8_t *out, int w, int h)
{
    launch_crop<uint8_t>(in, out, 0, 0, w, w, h);
}
