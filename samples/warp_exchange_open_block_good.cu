// expect-clean
// Each atom's threads (a 4 x 4 slice of the block) exchange three indexes through shared memory
// with `__syncwarp()` between: right where a slice lies in one warp. The kernel is launched through
// a helper that takes the block from a configuration record, so the shape is not known here; a
// race across warps would rest on a shape cudalint picks, not on the program's, and is not reported.
struct LaunchConfig {
    unsigned block[3];
    unsigned grid[3];
};

template <typename... Args>
void launch_with(void (*kernel)(Args...), const LaunchConfig &c, Args... args)
{
    kernel<<<dim3(c.grid[0], c.grid[1], c.grid[2]), dim3(c.block[0], c.block[1], c.block[2])>>>(args...);
}

__global__ void spread(const int *gridline, float *grid, int atoms)
{
    __shared__ int lines[8 * 3];
    const int atom = blockIdx.x * 8 + threadIdx.z;
    const int lane = threadIdx.y * blockDim.x + threadIdx.x;
    if (lane < 3 && atom < atoms)
        lines[threadIdx.z * 3 + lane] = gridline[atom * 3 + lane];
    __syncwarp();
    if (atom < atoms) {
        const int x = lines[threadIdx.z * 3 + 0];
        const int y = lines[threadIdx.z * 3 + 1] + threadIdx.y;
        const int z = lines[threadIdx.z * 3 + 2] + threadIdx.x;
        atomicAdd(&grid[(x * 64 + y) * 64 + z], 1.0f);
    }
}

void run(const int *gridline, float *grid, int atoms)
{
    LaunchConfig c = {{4, 4, 8}, {(unsigned)(atoms + 7) / 8, 1, 1}};
    launch_with(spread, c, gridline, grid, atoms);
}
