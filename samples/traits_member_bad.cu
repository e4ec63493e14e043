// The same kernel launched with `shift = true`: each thread reads the four flags one element to
// the right in four loads, and the lanes of a warp are 16 B apart: 16 sectors a request, not 4.
template <bool shift>
struct ScanTraits {
    static __device__ bool shiftFlags() { return shift; }
};

template <class traits>
__global__ void load_flags(const unsigned int* __restrict__ flags, uint4* __restrict__ out, int n)
{
    unsigned int g = (blockIdx.x * blockDim.x + threadIdx.x) * 4;
    uint4 f = make_uint4(0, 0, 0, 0);
    if (traits::shiftFlags()) {
        if (g + 4 < n) {
            f.x = flags[g + 1];  // expect: CL101
            f.y = flags[g + 2];
            f.z = flags[g + 3];
            f.w = flags[g + 4];
        }
    } else if (g + 3 < n) {
        f = reinterpret_cast<const uint4*>(flags)[g / 4];
    }
    if (g + 3 < n)
        out[g / 4] = f;
}

void run_load_flags(const unsigned int* flags, uint4* out, int n)
{
    load_flags<ScanTraits<true>><<<(n / 4 + 127) / 128, 128>>>(flags, out, n);
}
