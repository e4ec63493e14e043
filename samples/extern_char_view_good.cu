// expect-clean
// Dynamic shared memory declared as bytes and used through an `unsigned*` view: each thread
// stores four words side by side at a 16-byte aligned place, which nvcc joins into one 16-byte
// store. A warp's 16-byte stores fill 512 contiguous bytes: no two lanes of a phase share a bank.
__global__ void stage_keys(const unsigned* in, unsigned* out)
{
    extern __shared__ char smem[];
    unsigned* pad = (unsigned*)smem;
    int t = threadIdx.x;
    unsigned a = in[blockIdx.x * 128 + t];
    pad[t * 4 + 0] = a;
    pad[t * 4 + 1] = a + 1;
    pad[t * 4 + 2] = a + 2;
    pad[t * 4 + 3] = a + 3;
    __syncthreads();
    out[blockIdx.x * 128 + t] = pad[t];
}

void stage_keys_launch(const unsigned* in, unsigned* out, int nblocks)
{
    stage_keys<<<nblocks, 128, 128 * 16>>>(in, out);
}
