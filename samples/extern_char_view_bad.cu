// Dynamic shared memory declared as bytes and used through an `unsigned*` view: each thread
// stores four words side by side, joined by nvcc into one 16-byte store, but the records are 32
// bytes apart: two lanes of each 8-lane phase meet in every bank, a 2-way conflict (not the 8-way
// of four separate word stores).
__global__ void stage_keys(const unsigned* in, unsigned* out)
{
    extern __shared__ char smem[];
    unsigned* pad = (unsigned*)smem;
    int t = threadIdx.x;
    unsigned a = in[blockIdx.x * 128 + t];
    pad[t * 8 + 0] = a;  // expect: CL401
    pad[t * 8 + 1] = a + 1;
    pad[t * 8 + 2] = a + 2;
    pad[t * 8 + 3] = a + 3;
    __syncthreads();
    out[blockIdx.x * 128 + t] = pad[t];
}

void stage_keys_launch(const unsigned* in, unsigned* out, int nblocks)
{
    stage_keys<<<nblocks, 128, 128 * 32>>>(in, out);
}
