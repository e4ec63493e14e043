// The buffers and the item count live in `__constant__` memory, set by the host with
// cudaMemcpyToSymbol: each thread writes a 64-byte node as four 16-byte stores, lanes 64 bytes
// apart, 32 sectors a warp request where 16 would do. A `__constant__` pointer points to global
// memory and holds one value for the whole launch, as a kernel's parameter does.
struct node64 {
    uint4 words[4];
};

__constant__ node64 *d_nodes;
__constant__ unsigned d_count;

__global__ void fill_nodes(unsigned seed)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= d_count)
        return;
    for (int w = 0; w != 4; ++w)
        d_nodes[i].words[w] = make_uint4(seed ^ i, w, 0, 0);   // expect: CL101
}

void run(node64 *nodes, unsigned count, unsigned seed)
{
    cudaMemcpyToSymbol(d_nodes, &nodes, sizeof(nodes));
    cudaMemcpyToSymbol(d_count, &count, sizeof(count));
    fill_nodes<<<(count + 127) / 128, 128>>>(seed);
}
