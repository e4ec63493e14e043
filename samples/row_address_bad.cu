// Two threads take the address of one padded row of a shared tile (`&tile[t / 2]`): both store
// its first two elements.
__global__ void row_pairs(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[32][33];
    float* row = (float*)&tile[threadIdx.x / 2];
    const int r = blockIdx.x * 32 + threadIdx.x;
    row[0] = in[r];  // expect: CL302
    row[1] = in[r + n];  // expect: CL302
    out[r] = row[0] * row[1];  // expect: CL501
}

void row_pairs_launch(const float* in, float* out, int rows)
{
    row_pairs<<<rows / 32, 32>>>(in, out, rows);
}
