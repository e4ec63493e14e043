// A row length held in a local written with brace initialization (`const int nz{2 * lmax + 1};`):
// each thread sums its own row of nz values, so a warp's lanes are nz elements apart.
__global__ void row_sums(const double *q, double *out, int n, int lmax)
{
    const int nz{2 * lmax + 1};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = 0.0;
        for (int m = 0; m < nz; m++)
            s += q[i * nz + m];        // expect: CL101
        out[i] = s;
    }
}

void launch(const double *q, double *out, int n, int lmax)
{
    row_sums<<<(n + 127) / 128, 128>>>(q, out, n, lmax);
}
