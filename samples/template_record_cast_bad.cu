// Decoded boxes written as records of a class template, one box a thread, one field at a time:
// `BBoxT<__half>` is 8 bytes, so each 2-byte store of a warp spans 8 sectors where 2 would do.
// The output arrives as `void*` and is cast to the template's instance (`static_cast<BBoxT<__half>*>`).
#include <cuda_fp16.h>

template <typename T>
struct BBoxT {
    T y1, x1, y2, x2;
};

__global__ void decode_boxes(int samples, const float *deltas, void *outputBbox)
{
    BBoxT<__half> *bbox_out = static_cast<BBoxT<__half> *>(outputBbox);
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < samples) {
        const float d = deltas[i];
        bbox_out[i].y1 = __float2half(d);   // expect: CL101
        bbox_out[i].x1 = __float2half(d + 1.0f);
        bbox_out[i].y2 = __float2half(d + 2.0f);
        bbox_out[i].x2 = __float2half(d + 3.0f);
    }
}

void run(int samples, const float *deltas, void *out)
{
    decode_boxes<<<(samples + 255) / 256, 256>>>(samples, deltas, out);
}
