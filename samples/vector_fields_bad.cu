// The same four fields in a struct of its own, with no alignment beyond its members': nvcc cannot
// join the stores, so each is a request whose lanes are 16 bytes apart (16 sectors for 4 useful).
struct Key {
    unsigned x, y, z, w;
};

__global__ void make_keys(Key* out, int n, unsigned seed)
{
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < n) {
        out[idx].x = seed * idx;  // expect: CL101
        out[idx].y = seed + idx;
        out[idx].z = seed ^ idx;
        out[idx].w = seed - idx;
    }
}

void make_keys_launch(Key* out, int n)
{
    make_keys<<<(n + 127) / 128, 128>>>(out, n, 7u);
}
