// The same launch macro called with 256 threads a block for a tile of 128:
// threads 128 to 255 store past the tile.
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
    tile[threadIdx.x] = i < n ? in[i] : T(0);  // expect: CL201
    __syncthreads();
    if (i < n)
        out[i] = tile[threadIdx.x] * T(2);  // expect: CL201
}

void run(const float* in, float* out, int n)
{
    const int threads = 256;
    const int blocks = (n + threads - 1) / threads;
    KERNEL_CALL((scale<float, 128>), blocks, threads, 0, in, out, n);
}
