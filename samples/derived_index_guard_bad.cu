// One thread per (point, neighbour offset): the grid covers n * volume threads rounded up to whole
// blocks, and a thread's point is its global number divided by the volume. The point's coordinates
// are read before the kernel's own `if (idx < n)`: the threads the rounding adds have idx = n and
// read the record past the last point.
__global__ void neighbour_keys(const int* coords, const int* dx, const int* dy, const int* dz, int* keys,
                               int n, int volume)
{
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int idx = tid / volume;
    int k = tid % volume;
    const int* point = coords + 4 * idx;
    int batch = point[3];  // expect: CL202
    if (idx < n) {
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
