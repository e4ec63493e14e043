// The guard of a 2-D kernel written with C++'s alternative tokens: `or` where `and` is meant,
// so a thread past the right edge of a row inside the matrix still stores.
__global__ void add_bias(float* out, const float* bias, int rows, int cols)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows or col < cols)
        out[row * cols + col] += bias[col];  // expect: CL202
}

void add_bias_launch(float* out, const float* bias, int rows, int cols)
{
    dim3 block(32, 8);
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    add_bias<<<grid, block>>>(out, bias, rows, cols);
}
