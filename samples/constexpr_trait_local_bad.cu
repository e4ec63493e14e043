// The same block maximum with the float arm's barrier left out: in the arm the float instance
// compiles, thread 0 reads the maximum while other threads' atomics may still be updating it.
#include <type_traits>

template <typename T>
__global__ void block_max(const T *in, int n, T *out)
{
    __shared__ T best;
    if (threadIdx.x == 0)
        best = 0;
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    T v = i < n ? in[i] : T(0);

    constexpr bool is_fp = std::is_floating_point<T>::value;
    constexpr bool is_int = std::is_integral<T>::value;

    if constexpr (is_fp) {
        atomicMax((int *)&best, __float_as_int(v));   // non-negative values: their bits order alike
        if (threadIdx.x == 0)
            atomicMax((int *)out, __float_as_int(best));   // expect: CL501
    } else if constexpr (is_int) {
        atomicMax(&best, v);
        __syncthreads();
        if (threadIdx.x == 0)
            atomicMax(out, best);
    }
}

void run(const float *in, int n, float *out)
{
    block_max<float><<<(n + 127) / 128, 128>>>(in, n, out);
}
