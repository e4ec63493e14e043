// A block maximum whose last step depends on the element type: the arm for floating-point types
// waits for the whole block before thread 0 reads the slots; the arm for integers rewrites the
// slots and returns. The test is a constexpr local made from a type trait, so each instantiation
// compiles one arm only: the integer arm's stores never meet the float arm's reads.
#include <type_traits>

template <typename T>
__global__ void block_max(const T *in, int n, T *out)
{
    __shared__ T part[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);
    part[threadIdx.x] = v;

    constexpr bool is_fp = std::is_floating_point<T>::value;
    constexpr bool is_int = std::is_integral<T>::value;

    if constexpr (is_fp) {
        __syncthreads();
        if (threadIdx.x == 0) {
            T m = part[0];
            for (int k = 1; k < 128; ++k)
                m = m > part[k] ? m : part[k];
            out[blockIdx.x] = m;
        }
    } else if constexpr (is_int) {
        part[threadIdx.x] = v > 0 ? v : -v;
        out[blockIdx.x * 128 + threadIdx.x] = part[threadIdx.x];
    }
}

void run(const float *in, int n, float *out)
{
    block_max<float><<<(n + 127) / 128, 128>>>(in, n, out);
}
// expect-clean
