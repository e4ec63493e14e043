// The same helper with a second caller that asks for columns: the column kernel runs, and its
// stores to the shared tile, 4 words apart per lane, are a 4-way bank conflict (the four reads of
// a row are one 16-byte load, which has none).
template <int NT>
__global__ void sum_rows(const float *in, float *out, int rows)
{
    __shared__ float s[NT];
    float x = 0.f;
    for (int i = threadIdx.x; i < rows; i += NT)
        x += in[blockIdx.x * rows + i];
    s[threadIdx.x] = x;
    __syncthreads();
    for (int off = NT / 2; off > 0; off /= 2) {
        if (threadIdx.x < off)
            s[threadIdx.x] += s[threadIdx.x + off];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}

__global__ void sum_cols(const float *in, float *out, int rows, int cols)
{
    __shared__ float s[128];
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    float x = 0.f;
    if (row < rows)
        for (int c = threadIdx.y; c < cols; c += blockDim.y)
            x += in[c * rows + row];
    s[threadIdx.x * 4 + threadIdx.y] = x;   // expect: CL401
    __syncthreads();
    if (threadIdx.y == 0 && row < rows)
        out[row] = s[threadIdx.x * 4] + s[threadIdx.x * 4 + 1] + s[threadIdx.x * 4 + 2] + s[threadIdx.x * 4 + 3];
}

static void reduce(const float *in, float *out, int rows, int cols, bool axis)
{
    if (axis) {
        sum_rows<128><<<cols, 128>>>(in, out, rows);
    } else {
        sum_cols<<<(rows + 31) / 32, dim3(32, 4)>>>(in, out, rows, cols);
    }
}

void column_sums(const float *in, float *out, int rows, int cols)
{
    reduce(in, out, rows, cols, true);
}

void row_sums(const float *in, float *out, int rows, int cols)
{
    reduce(in, out, rows, cols, false);
}
