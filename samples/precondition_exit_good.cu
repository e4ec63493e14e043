// expect-clean
// A warp per row; each lane takes one column at a time and leaves the column loop once past the
// row. The kernel traps unless the row length is a multiple of 32, and `__trap()` ends the launch:
// for every length that runs, all lanes of a warp leave the loop together, so the barriers inside
// it are reached by the whole block. The trial values meet the kernel's precondition.
__global__ void rows_exchange(float *out, const float *in, int rows, int cols)
{
    if (cols % 32 != 0) {
        __trap();
    }
    __shared__ float other[256];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int row = min(blockIdx.x * (blockDim.x / 32) + warp, rows - 1);
    for (int c = 0; c < cols / 32 + 2; c++) {
        int col = lane + c * 32;
        if (col >= cols)
            break;
        float v = in[row * cols + col];
        other[threadIdx.x] = v;
        __syncthreads();
        v += other[threadIdx.x ^ 32];
        __syncthreads();
        out[row * cols + col] = v;
    }
}

void run_rows_exchange(float *out, const float *in, int rows, int cols)
{
    rows_exchange<<<(rows + 7) / 8, 256>>>(out, in, rows, cols);
}
