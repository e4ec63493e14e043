// The same reduction with the last warp's steps ordered by `__syncwarp()`: each lane's partial
// sum is read into a register, the warp waits, then stores; the shared memory still comes from the
// class template's `getPointer()`, which returns the block's `extern __shared__` array.
template <class T>
struct SharedMem {
    __device__ T *getPointer()
    {
        extern __shared__ T s[];
        return s;
    }
};

template <class T, int blockSize>
__global__ void reduce(const T *in, T *out)
{
    const unsigned tid = threadIdx.x;
    SharedMem<T> shared;
    T *sdata = shared.getPointer();
    sdata[tid] = in[blockIdx.x * blockSize + tid];
    __syncthreads();
    if (tid < 64)
        sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        for (int offset = 32; offset > 0; offset /= 2) {
            T v = sdata[tid] + sdata[tid + offset];
            __syncwarp();
            sdata[tid] = v;
            __syncwarp();
        }
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

void run(const float *in, float *out, int blocks)
{
    reduce<float, 128><<<blocks, 128, 128 * sizeof(float)>>>(in, out);
}
// expect-clean
