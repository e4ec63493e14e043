// expect-clean
// A kernel template configured by a traits class: its static member functions return the class's
// template arguments, and the launch instantiates it with `shift = false`, so the branch that
// reads the flags one element to the right (four loads per thread, 16 B apart across the warp)
// is never compiled into this kernel; it reads them a uint4 per thread instead.
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
            f.x = flags[g + 1];
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
    load_flags<ScanTraits<false>><<<(n / 4 + 127) / 128, 128>>>(flags, out, n);
}
