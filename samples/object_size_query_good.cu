// expect-clean
// A tensor passed to the kernel by value, its sizes read through a method
// (`ids.getSize(1)`): one value for the whole launch. The block loads the
// ids of a query, and the threads prefetch the next id in every
// step but the last (`c != ids.getSize(1) - 1`); the next query's store
// waits behind the last step's barrier. cudalint reads the size as an
// open value of the launch, the same in the loop and in the guard.
template <typename T, int D>
struct Tensor
{
    T* data_;
    int size_[D];
    __device__ int getSize(int i) const { return size_[i]; }
};

__global__ void gather(Tensor<int, 2> ids, const float* table, float* out, int queries)
{
    __shared__ int s_ids[1024];
    for (int q = 0; q < queries; ++q)
    {
        for (int i = threadIdx.x; i < ids.getSize(1); i += blockDim.x)
            s_ids[i] = ids.data_[q * ids.getSize(1) + i];
        __syncthreads();
        for (int c = 0; c < ids.getSize(1); ++c)
        {
            __syncthreads();
            if (c != ids.getSize(1) - 1)
                out[q * blockDim.x + threadIdx.x] += table[s_ids[c + 1]];
        }
    }
}

void run(Tensor<int, 2> ids, const float* table, float* out, int queries) { gather<<<1, 64>>>(ids, table, out, queries); }
