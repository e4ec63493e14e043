// The same program with the outer instantiation passing `true` (`scan<Sum<unsigned int>, true>`; the recursion
// passes `false`): the shifted path runs in that instance, each thread reads four flags in four
// loads and the lanes of a warp are 16 B apart: 16 sectors a request, not 4.
template <bool shift, bool full>
struct ScanTraits {
    static __device__ bool shiftFlags() { return shift; }
    static __device__ bool isFullBlock() { return full; }
};

template <class traits>
__device__ void load_flags(const unsigned int* __restrict__ flags, uint4* __restrict__ out, int n, unsigned int g)
{
    uint4 f = make_uint4(0, 0, 0, 0);
    if (traits::shiftFlags()) {
        if (traits::isFullBlock() || g + 4 < n) {
            f.x = flags[g + 1];  // expect: CL101
            f.y = flags[g + 2];
            f.z = flags[g + 3];
            f.w = flags[g + 4];
        }
    } else if (traits::isFullBlock() || g + 3 < n) {
        f = reinterpret_cast<const uint4*>(flags)[g / 4];
    }
    if (g + 3 < n)
        out[g / 4] = f;
}

template <class traits>
__global__ void scan_flags(const unsigned int* __restrict__ flags, uint4* __restrict__ out, int n)
{
    unsigned int g = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    load_flags<traits>(flags, out, n, g);
}

template <class T>
struct Sum {
    __device__ T operator()(T a, T b) const { return a + b; }
};

template <class Op, bool doShift>
void scan(const unsigned int* flags, uint4* out, int n, int level)
{
    if (n > 512)
        scan<Op, false>(flags, out, n / 512, level + 1);
    scan_flags<ScanTraits<doShift, false>><<<(n / 4 + 127) / 128, 128>>>(flags, out, n);
}

void run_scan(const unsigned int* flags, uint4* out, int n)
{
    scan<Sum<unsigned int>, true>(flags, out, n, 0);
}
