// expect-clean
// A kernel template with an explicit specialization for float, launched as `scale<T>` from a host
// template instantiated for float: that launch is the specialization's, with its block of
// (1, 256) whose lanes walk a row along y.
template <typename T>
__global__ void scale(T *rows, int n, int dim);

template <>
__global__ void scale<float>(float *rows, int n, int dim)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= n)
        return;
    for (int i = r * dim + threadIdx.y; i < (r + 1) * dim; i += blockDim.y)
        rows[i] *= 2.0f;
}

template <typename T>
void run_scale(T *rows, int n, int dim)
{
    scale<T><<<n, dim3(1, 256)>>>(rows, n, dim);
}

template void run_scale<float>(float *, int, int);
