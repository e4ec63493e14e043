// The same flush reading the counts alone: each lane reads 4 bytes of its 8-byte slot, the lanes 8
// bytes apart, so a warp's 32 reads span 256 bytes: two lanes on each bank, a 2-way conflict.
__global__ void flush(int *bins, int slots)
{
    extern __shared__ int2 table[];
    for (int i = threadIdx.x; i < slots; i += blockDim.x)
        table[i] = make_int2(i, i & 7);
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        int count = table[i].y;   // expect: CL401
        if (count > 0)
            atomicAdd(bins + (i & 1023), count);
    }
}

void run(int *bins)
{
    flush<<<16, 256, 4096 * sizeof(int2)>>>(bins, 4096);
}
