// Each thread keeps its own row of a 32 x 33 shared table (33 words: off the banks of its
// neighbours' rows): eight values, their sixteen partial sums, and a total in the row's first 25
// columns. The row is the declaration's, and the thread fills it from its start; the last 8
// columns are spare room, not elements an index steps over.
__global__ void row_sums(const float *in, float *out)
{
    __shared__ float cs[32][33];
    float *vals = &cs[threadIdx.x][0];
    float *psum = &cs[threadIdx.x][8];
    for (int s = 0; s < 8; ++s)
        vals[s] = in[s * 32 + threadIdx.x];
    for (int s = 0; s < 16; ++s)
        psum[s] = vals[s & 7] * s;
    float total = 0.f;
    for (int s = 0; s < 16; ++s)
        total += psum[s];
    cs[threadIdx.x][24] = total;
    out[threadIdx.x] = cs[threadIdx.x][24];
}

void run(const float *in, float *out)
{
    row_sums<<<1, 32>>>(in, out);
}
// expect-clean
