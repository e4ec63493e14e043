// The same read-back after a store through another pointer, which may point into the records: nvcc
// must load the three ints again, and those loads are as far apart as the stores (12 sectors per
// request where 4 would do).
__global__ void wrap_cells(const int *grid, int *shift_out, int *cell_out, int total)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= total)
        return;
    int g[3] = {grid[0], grid[1], grid[2]};
    int idx[3] = {i % 7 - 3, i % 5 - 2, i % 3 - 1};
    int *shift = shift_out + i * 3;
    shift[0] = idx[0] < 0 ? 1 : 0;          // expect: CL101
    shift[1] = idx[1] < 0 ? 1 : 0;
    shift[2] = idx[2] < 0 ? 1 : 0;
    cell_out[i] = -1;
    for (int d = 0; d < 3; d++)
        idx[d] += shift[d] * g[d];          // expect: CL101
    cell_out[i] = (idx[0] * g[1] + idx[1]) * g[2] + idx[2];
}

void launch(const int *grid, int *shift, int *cells, int total)
{
    wrap_cells<<<(total + 255) / 256, 256>>>(grid, shift, cells, total);
}
