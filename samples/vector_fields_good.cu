// expect-clean
// Each thread writes the four fields of its own `uint4` one after another: the type is 16-byte
// aligned, so nvcc writes the element with one 16-byte store and a warp writes 512 contiguous bytes.
__global__ void make_keys(uint4* out, int n, unsigned seed)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        out[idx].x = seed * idx;
        out[idx].y = seed + idx;
        out[idx].z = seed ^ idx;
        out[idx].w = seed - idx;
    }
}

void make_keys_launch(uint4* out, int n)
{
    make_keys<<<(n + 127) / 128, 128>>>(out, n, 7u);
}
