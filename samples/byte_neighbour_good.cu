// expect-clean
// A spin lattice of one byte per site; each thread adds its right neighbour. The neighbour's
// bytes are the warp's own run shifted by one: 32 contiguous bytes that straddle a sector boundary
// take 2 sectors wherever the run starts, the fewest that can hold them.
__global__ void add_right(const signed char *lat, signed char *out, int nx, int ny)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int i = tid / ny, j = tid % ny;
    if (i >= nx)
        return;
    int right = j + 1 < ny ? j + 1 : 0;
    out[i * ny + j] = lat[i * ny + j] + lat[i * ny + right];
}

void run_add_right(const signed char *lat, signed char *out, int nx, int ny)
{
    add_right<<<(nx * ny + 127) / 128, 128>>>(lat, out, nx, ny);
}
