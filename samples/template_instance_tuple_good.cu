// A kernel instantiated for (half, 16) and (float, 32) through its launcher: `local` holds eight
// elements, 16 bytes for half (one int4) and 32 bytes for float (two). Each instantiation is one
// pair of arguments: BITS is 32 only where T is float, so the second int4 is always in bounds.
#include <cuda_fp16.h>

template <typename T, int BITS>
__global__ void gather8(const T *__restrict__ A, float *out, int K, int n)
{
    T local[8];
    int idx = threadIdx.x * 8;
    if (idx + 8 <= K) {
        if (BITS == 16) {
            reinterpret_cast<int4(&)[1]>(local)[0] = reinterpret_cast<const int4 *>(A)[threadIdx.x];
        } else {
            reinterpret_cast<int4(&)[2]>(local)[0] = reinterpret_cast<const int4 *>(A)[threadIdx.x];
            reinterpret_cast<int4(&)[2]>(local)[1] = reinterpret_cast<const int4 *>(A)[threadIdx.x + 128];
        }
    }
    float acc = 0.f;
    for (int k = 0; k < 8; k++)
        acc += (float)local[k];
    int o = blockIdx.x * blockDim.x + threadIdx.x;
    if (o < n)
        out[o] = acc;
}

template <typename T, int BITS>
void launch(const T *A, float *out, int K, int n)
{
    gather8<T, BITS><<<(n + 127) / 128, 128>>>(A, out, K, n);
}
template void launch<__half, 16>(const __half *, float *, int, int);
template void launch<float, 32>(const float *, float *, int, int);
// expect-clean
