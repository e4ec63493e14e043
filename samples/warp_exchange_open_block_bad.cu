// The same exchange launched directly with an 8 x 8 slice per atom: a slice is 64 threads, two
// warps, and the `__syncwarp()` orders neither warp's reads after the other's stores.
__global__ void spread(const int *gridline, float *grid, int atoms)
{
    __shared__ int lines[2 * 3];
    const int atom = blockIdx.x * 2 + threadIdx.z;
    const int lane = threadIdx.y * blockDim.x + threadIdx.x;
    if (lane < 3 && atom < atoms)
        lines[threadIdx.z * 3 + lane] = gridline[atom * 3 + lane];
    __syncwarp();
    if (atom < atoms) {
        const int x = lines[threadIdx.z * 3 + 0];               // expect: CL501
        const int y = lines[threadIdx.z * 3 + 1] + threadIdx.y; // expect: CL501
        const int z = lines[threadIdx.z * 3 + 2] + threadIdx.x; // expect: CL501
        atomicAdd(&grid[(x * 64 + y) * 64 + z], 1.0f);
    }
}

void run(const int *gridline, float *grid, int atoms)
{
    spread<<<(atoms + 1) / 2, dim3(8, 8, 2)>>>(gridline, grid, atoms);
}
