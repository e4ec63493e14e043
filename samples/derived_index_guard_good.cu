// One thread per (point, neighbour offset): the grid covers n * volume threads rounded up to whole
// blocks, and a thread's point is its global number divided by the volume. Every read of the point's
// coordinates stands under the kernel's `if (idx < n)`: the threads the rounding adds read nothing.
__global__ void neighbour_keys(const int* coords, const int* dx, const int* dy, const int* dz, int* keys,
                               int n, int volume)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int idx = tid / volume;
    int k = tid % volume;
    const int* point = coords + 4 * idx;
    if (idx < n) {
        int batch = point[3];
        int x = point[0] + dx[k];
        int y = point[1] + dy[k];
        int z = point[2] + dz[k];
        keys[tid] = ((batch * 1024 + x) * 1024 + y) * 1024 + z;
    }
}

void make_keys(const int* coords, const int* dx, const int* dy, const int* dz, int* keys, int n,
               int volume)
{
    neighbour_keys<<<(n * volume + 255) / 256, 256>>>(coords, dx, dy, dz, keys, n, volume);
}
// expect-clean
