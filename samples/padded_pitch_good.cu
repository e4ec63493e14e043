// expect-clean
// Column maxima of a rows x cols matrix, one tile row of 32 rows per block row, written to a
// row of `colmax` whose pitch `ld` the host pads to a multiple of the 128-wide tile (and checks).
// The threads the last tile adds past cols write into that padding, inside their own row: the
// row's length is its pitch, not cols.
#include <cassert>

__global__ void col_max(const float *in, float *colmax, int ld, int rows, int cols)
{
    int c = blockIdx.x * 128 + threadIdx.x;
    int r0 = blockIdx.y * 32;
    float m = 0.0f;
    for (int r = r0; r < r0 + 32; r++)
        if (r < rows && c < cols) m = fmaxf(m, fabsf(in[r * cols + c]));
    colmax[blockIdx.y * ld + c] = m;
}

void run_col_max(const float *in, float *colmax, int ld, int rows, int cols)
{
    assert(ld % 128 == 0 && ld >= cols);
    dim3 grid((cols + 127) / 128, (rows + 31) / 32);
    col_max<<<grid, 128>>>(in, colmax, ld, rows, cols);
}
