// The same table with the partial sums put 16 columns into the row: columns 8 to 15 of every
// thread's row lie between the values and the sums, and no index ever reaches them (nor column 32).
__global__ void row_sums(const float *in, float *out)
{
    __shared__ float cs[32][33];
    float *vals = &cs[threadIdx.x][0];
    float *psum = &cs[threadIdx.x][16];
    for (int s = 0; s < 8; ++s)
        vals[s] = in[s * 32 + threadIdx.x];   // expect: CL301
    for (int s = 0; s < 16; ++s)
        psum[s] = vals[s & 7] * s;
    float total = 0.f;
    for (int s = 0; s < 16; ++s)
        total += psum[s];   // expect: CL301
    out[threadIdx.x] = total;
}

void run(const float *in, float *out)
{
    row_sums<<<1, 32>>>(in, out);
}
