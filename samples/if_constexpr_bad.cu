// The same kernel instantiated for double: the instance compiles the other arm, whose two stores
// per thread leave every other double of each warp's request untouched.
#include <type_traits>

template <typename T>
__global__ void fill(T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if constexpr (std::is_same_v<T, float>) {
        out[i] = 1.0f;
    } else {
        out[2 * i] = T(1);  // expect: CL101
        out[2 * i + 1] = T(0);
    }
}

void run_fill(double *out, int n)
{
    fill<double><<<(n + 255) / 256, 256>>>(out, n);
}
