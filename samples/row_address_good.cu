// expect-clean
// Each thread owns one padded row of a shared tile and takes its address as `&tile[t]`: a row is
// 33 floats, so thread t's values start 33 * t floats in and no two threads share an element.
__global__ void row_pairs(const float* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float tile[32][33];
    float* row = (float*)&tile[threadIdx.x];
    const int r = blockIdx.x * 32 + threadIdx.x;
    row[0] = in[r];
    row[1] = in[r + n];
    out[r] = row[0] * row[1];
}

void row_pairs_launch(const float* in, float* out, int rows)
{
    row_pairs<<<rows / 32, 32>>>(in, out, rows);
}
