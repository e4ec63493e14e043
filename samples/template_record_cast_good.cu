// The same boxes stored whole: one 8-byte `BBoxT<__half>` a thread (the record built in registers
// and written with one store), so a warp's stores are 256 contiguous bytes, 8 sectors, the ideal.
#include <cuda_fp16.h>

template <typename T>
struct __align__(8) BBoxT {
    T y1, x1, y2, x2;
};

__global__ void decode_boxes(int samples, const float *deltas, void *outputBbox)
{
    BBoxT<__half> *bbox_out = static_cast<BBoxT<__half> *>(outputBbox);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < samples) {
        const float d = deltas[i];
        BBoxT<__half> box;
        box.y1 = __float2half(d);
        box.x1 = __float2half(d + 1.0f);
        box.y2 = __float2half(d + 2.0f);
        box.x2 = __float2half(d + 3.0f);
        bbox_out[i] = box;
    }
}

void run(int samples, const float *deltas, void *out)
{
    decode_boxes<<<(samples + 255) / 256, 256>>>(samples, deltas, out);
}
// expect-clean
