// A walk that re-reads a shared word inside a loop. The loop stores to the thread's words at one
// its data picks, which may be the one it re-reads, so each iteration's read is a real shared load:
// every one meets the 8-way conflict of `t * 8` (each thread's word 32 B from its neighbour's).
__global__ void walk(const unsigned* keys, const unsigned* text, unsigned* out)
{
    __shared__ unsigned pad[1024];
    int t = threadIdx.x;
    for (int i = 0; i < 8; i++)
        pad[t + 128 * i] = keys[blockIdx.x * 1024 + t + 128 * i];
    __syncthreads();
    unsigned a = text[pad[t * 8]];  // expect: CL401
    unsigned b = text[pad[(t * 8 + 13) & 1023]];  // expect: CL401
    for (int i = 1; i < 8; i++) {
        a += text[pad[t * 8] + i];  // expect: CL401
        pad[t * 8 + (a & 7)] = a;
    }
    out[blockIdx.x * 128 + t] = a < b;
}

void walk_launch(const unsigned* keys, const unsigned* text, unsigned* out, int blocks)
{
    walk<<<blocks, 128>>>(keys, text, out);
}
