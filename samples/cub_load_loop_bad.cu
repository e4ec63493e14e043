// The same row copy with the transposing BlockLoad/BlockStore: they exchange items through shared
// memory between block barriers, and the threads that skip the row's last pack never reach them.
#include <cub/cub.cuh>

template <int BLOCK, int PACK>
__global__ void copy_rows(const float* __restrict__ src, float* __restrict__ dst, int cols)
{
    typedef cub::BlockLoad<float, BLOCK, PACK, cub::BLOCK_LOAD_TRANSPOSE> Load;
    typedef cub::BlockStore<float, BLOCK, PACK, cub::BLOCK_STORE_TRANSPOSE> Store;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Store::TempStorage store_tmp;
    const float* row_in = src + (size_t)blockIdx.x * cols;
    float* row_out = dst + (size_t)blockIdx.x * cols;
    float items[PACK];
    for (int idx = 0; idx + threadIdx.x * PACK < cols; idx += BLOCK * PACK) {
        Load(load_tmp).Load(row_in + idx, items);  // expect: CL502
        Store(store_tmp).Store(row_out + idx, items);  // expect: CL502
    }
}

void copy_rows_launch(const float* src, float* dst, int rows, int cols)
{
    copy_rows<128, 4><<<rows, 128>>>(src, dst, cols);
}
