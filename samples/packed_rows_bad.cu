// Each block sums one column of a row-major matrix; each thread takes PACK rows of it, but the
// loop starts at 2: the row after each thread's first is never read.
template <int PACK>
__global__ void column_partials(const int* __restrict__ in, int* __restrict__ out, int rows, int cols)
{
    const int tid = threadIdx.x, col = blockIdx.x, first = tid * PACK;
    int acc = 0;
    if (first < rows) {
        acc = in[first * cols + col];  // expect: CL101
        for (int i = 2; i < PACK; ++i)
            acc += in[(first + i) * cols + col];  // expect: CL101, CL301
    }
    out[col * blockDim.x + tid] = acc;
}

void column_partials_launch(const int* in, int* out, int cols)
{
    column_partials<4><<<cols, 256>>>(in, out, 1024, cols);
}
