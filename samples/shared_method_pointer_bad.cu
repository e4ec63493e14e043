// A block reduction whose shared memory comes from a class template's method
// (`SharedMem<T>::getPointer()` declares the `extern __shared__` array and returns it: the usual
// way to give a templated kernel its dynamic shared memory). The last warp's steps exchange
// partial sums through that memory with no `__syncwarp()` between them: lane 0 reads what lane 16
// stored in the step before, a race since Volta's independent thread scheduling.
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
    volatile T *sdata = shared.getPointer();
    sdata[tid] = in[blockIdx.x * blockSize + tid];
    __syncthreads();
    if (tid < 64)
        sdata[tid] += sdata[tid + 64];
    __syncthreads();
    if (tid < 32) {
        sdata[tid] += sdata[tid + 32];
        sdata[tid] += sdata[tid + 16];   // expect: CL501
        sdata[tid] += sdata[tid + 8];    // expect: CL501
    }
    if (tid == 0)
        out[blockIdx.x] = sdata[0];
}

void run(const float *in, float *out, int blocks)
{
    reduce<float, 128><<<blocks, 128, 128 * sizeof(float)>>>(in, out);
}
