// expect-clean
// A launch macro in the style of graph libraries: the kernel is passed
// parenthesized, with its template arguments (`(scale<float, 128>)`), and
// its arguments through `__VA_ARGS__`. cudalint reads the launch where the
// macro is called: blocks of 128 threads, one per slot of the tile.
#define KERNEL_CALL(kernel, nblks, nthrs, shmem, ...)          \
    {                                                          \
        if ((nblks) > 0 && (nthrs) > 0) {                      \
            (kernel)<<<(nblks), (nthrs), (shmem)>>>(__VA_ARGS__); \
        }                                                      \
    }

template <typename T, int TILE>
__global__ void scale(const T* in, T* out, int n)
{
    __shared__ T tile[TILE];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    tile[threadIdx.x] = i < n ? in[i] : T(0);
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x] * T(2);
}

void run(const float* in, float* out, int n)
{
    const int threads = 128;
    const int blocks = (n + threads - 1) / threads;
    KERNEL_CALL((scale<float, 128>), blocks, threads, 0, in, out, n);
}
