// Each thread fills its own row of `out` from column `start` to `n`: the lanes of a warp are a whole
// row apart (`ld` floats), and every store of the warp touches 32 sectors. The loop's start is an
// offset into the row, not a second size: the rows are filled wherever start < n.
__global__ void fill_rows(const float *in, float *out, int n, int start, int ld)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = start; j < n; ++j)
        out[t * ld + j] = in[j];   // expect: CL101
}

void run(const float *in, float *out, int n, int start, int ld)
{
    fill_rows<<<16, 256>>>(in, out, n, start, ld);
}
