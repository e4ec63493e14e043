// expect-clean
// A block copies a row in packs with CUB's vectorized BlockLoad/BlockStore: each thread moves its
// own items with no barrier inside, so the threads that skip the row's last pack wait for nobody.
#include <cub/cub.cuh>

template <int BLOCK, int PACK>
__global__ void copy_rows(const float* __restrict__ src, float* __restrict__ dst, int cols)
{
    typedef cub::BlockLoad<float, BLOCK, PACK, cub::BLOCK_LOAD_VECTORIZE> Load;
    typedef cub::BlockStore<float, BLOCK, PACK, cub::BLOCK_STORE_VECTORIZE> Store;
    __shared__ typename Load::TempStorage load_tmp;
    __shared__ typename Store::TempStorage store_tmp;
    const float* row_in = src + (size_t)blockIdx.x * cols;
    float* row_out = dst + (size_t)blockIdx.x * cols;
    float items[PACK];
    for (int idx = 0; idx + threadIdx.x * PACK < cols; idx += BLOCK * PACK) {
        Load(load_tmp).Load(row_in + idx, items);
        Store(store_tmp).Store(row_out + idx, items);
    }
}

void copy_rows_launch(const float* src, float* dst, int rows, int cols)
{
    copy_rows<128, 4><<<rows, 128>>>(src, dst, cols);
}
