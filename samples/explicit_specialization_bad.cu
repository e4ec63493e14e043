// The same specialization launched with the block laid along x, (256, 1): a warp's lanes are rows
// dim floats apart.
template <typename T>
__global__ void scale(T *rows, int n, int dim);

template <>
__global__ void scale<float>(float *rows, int n, int dim)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n)
        return;
    for (int i = r * dim + threadIdx.y; i < (r + 1) * dim; i += blockDim.y)
        rows[i] *= 2.0f;        // expect: CL101
}

template <typename T>
void run_scale(T *rows, int n, int dim)
{
    scale<T><<<(n + 255) / 256, dim3(256, 1)>>>(rows, n, dim);
}

template void run_scale<float>(float *, int, int);
