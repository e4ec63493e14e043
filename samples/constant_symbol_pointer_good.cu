// The same nodes written word-major: in each of the four passes a warp's lanes store consecutive
// 16-byte words, 512 contiguous bytes, 16 sectors, the ideal. The pointer and the count come from
// `__constant__` memory, one value for the whole launch.
__constant__ uint4 *d_words;
__constant__ unsigned d_count;

__global__ void fill_words(unsigned seed)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= d_count)
        return;
    for (int w = 0; w != 4; ++w)
        d_words[w * d_count + i] = make_uint4(seed ^ i, w, 0, 0);
}

void run(uint4 *words, unsigned count, unsigned seed)
{
    cudaMemcpyToSymbol(d_words, &words, sizeof(words));
    cudaMemcpyToSymbol(d_count, &count, sizeof(count));
    fill_words<<<(count + 127) / 128, 128>>>(seed);
}
// expect-clean
