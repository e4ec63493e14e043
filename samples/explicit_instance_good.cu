// expect-clean
// A library kernel launched from another language: no launch in the file, one explicit
// instantiation, and `__launch_bounds__` that caps the block. Each thread sorts the pair
// (t, t + SortSize / 2) of its row, so a block of SortSize / 2 threads touches each element once.
template <int SortSize>
__launch_bounds__(1024)
__global__ void sort_pairs(float* keys)
{
    __shared__ float sk[SortSize];
    const int e1 = threadIdx.x;
    const int e2 = threadIdx.x + SortSize / 2;
    float* row = keys + blockIdx.x * SortSize;
    sk[e1] = row[e1];
    sk[e2] = row[e2];
    __syncthreads();
    if (sk[e1] > sk[e2]) { float t = sk[e1]; sk[e1] = sk[e2]; sk[e2] = t; }
    __syncthreads();
    row[e1] = sk[e1];
    row[e2] = sk[e2];
}

template __global__ void sort_pairs<1024>(float*);
