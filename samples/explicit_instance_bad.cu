// A library kernel launched from another language: no launch in the file, one explicit
// instantiation, and `__launch_bounds__` that caps the block. The partner is a quarter row away,
// so thread t's partner is thread t + SortSize / 4's own element: the pairs overlap.
template <int SortSize>
__launch_bounds__(1024)
__global__ void sort_pairs(float* keys)
{
    __shared__ float sk[SortSize];
    const int e1 = threadIdx.x;
    const int e2 = threadIdx.x + SortSize / 4;
    float* row = keys + blockIdx.x * SortSize;
    sk[e1] = row[e1];
    sk[e2] = row[e2];  // expect: CL501
    __syncthreads();
    if (sk[e1] > sk[e2]) { float t = sk[e1]; sk[e1] = sk[e2]; sk[e2] = t; }  // expect: CL501
    __syncthreads();
    row[e1] = sk[e1];
    row[e2] = sk[e2];
}

template __global__ void sort_pairs<1024>(float*);
