// expect-clean
// The same sums over a column-major table (`q[m * n + i]`): the local's value is read from its
// brace initializer, and a warp's lanes read consecutive elements at every m.
__global__ void row_sums(const double *q, double *out, int n, int lmax)
{
    const int nz{2 * lmax + 1};
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double s = 0.0;
        for (int m = 0; m < nz; m++)
            s += q[m * n + i];
        out[i] = s;
    }
}

void launch(const double *q, double *out, int n, int lmax)
{
    row_sums<<<(n + 127) / 128, 128>>>(q, out, n, lmax);
}
