// Flushing a shared hash table of (key, count) pairs: each thread reads the key of its slot and,
// where the slot is taken, its count. The count is read under a test of the key, but from the same
// 8-byte element the key was just read from, which cannot fault: nvcc reads both with one 8-byte
// load (LDS.64), and half a warp reads 128 contiguous bytes, with no bank conflict.
__global__ void flush(int *bins, int slots)
{
    extern __shared__ int2 table[];
    for (int i = threadIdx.x; i < slots; i += blockDim.x)
        table[i] = make_int2(i, i & 7);
    __syncthreads();
    for (int i = threadIdx.x; i < slots; i += blockDim.x) {
        if (table[i].x != -1 && table[i].y > 0)
            atomicAdd(bins + (table[i].x & 1023), table[i].y);
    }
}

void run(int *bins)
{
    flush<<<16, 256, 4096 * sizeof(int2)>>>(bins, 4096);
}
// expect-clean
