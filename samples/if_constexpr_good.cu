// expect-clean
// A kernel written for two element types: `if constexpr` keeps the arm the instance compiles.
// The program instantiates it for float only, whose arm stores one float per thread, side by
// side; the other arm (interleaved pairs, for complex types) is not in this program's code.
#include <type_traits>

template <typename T>
__global__ void fill(T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if constexpr (std::is_same_v<T, float>) {
        out[i] = 1.0f;
    } else {
        out[2 * i] = T(1);
        out[2 * i + 1] = T(0);
    }
}

void run_fill(float *out, int n)
{
    fill<float><<<(n + 255) / 256, 256>>>(out, n);
}
