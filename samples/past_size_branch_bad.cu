// The same kernel where the host allocates the keys without room for the end markers: the
// threads the branch runs past n store past the end of the n elements allocated.
__global__ void build_keys(unsigned *keys, const unsigned *rank, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        keys[i] = rank[i] + 1;
    else if (i == n || i == n + 1)
        keys[i] = 0;                // the two end markers  // expect: CL201
}

unsigned *run_build_keys(const unsigned *rank, int n)
{
    unsigned *keys;
    cudaMalloc(&keys, n * sizeof(unsigned));
    build_keys<<<(n + 255) / 256, 256>>>(keys, rank, n);
    return keys;
}
