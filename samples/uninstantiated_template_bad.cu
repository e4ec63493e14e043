// A first version of a kernel template kept beside a newer one, and still launched where the caller
// asks for it: the launch instantiates it, so its accesses, one row of `cols` elements per lane,
// are compiled and run.
template <typename T>
__global__ void scale_rows_v1(const T* in, T* out, T a, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    for (int c = 0; c < cols; ++c)
        out[r * cols + c] = a * in[r * cols + c];  // expect: CL101
}

template <typename T>
__global__ void scale_rows(const T* in, T* out, T a, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols)
        return;
    for (int r = 0; r < rows; ++r)
        out[r * cols + c] = a * in[r * cols + c];
}

void scale(const float* in, float* out, float a, int rows, int cols, bool by_rows)
{
    if (by_rows)
        scale_rows_v1<float><<<(rows + 255) / 256, 256>>>(in, out, a, rows, cols);
    else
        scale_rows<float><<<(cols + 255) / 256, 256>>>(in, out, a, rows, cols);
}
