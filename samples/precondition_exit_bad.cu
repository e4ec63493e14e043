// The kernel refuses a row length that is not a multiple of 32 and returns. Past that test every
// thread of the grid runs, the ones the rounded-up grid adds past n included: the trial sizes
// meet the kernel's own precondition (cols a multiple of 32), so the missing tail guard shows.
__global__ void scale_rows(float *out, const float *in, const float *row_scale, int n, int cols)
{
    if (cols % 32 != 0)
        return;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i] * row_scale[i / cols];       // expect: CL202
}

void run_scale_rows(float *out, const float *in, const float *row_scale, int n, int cols)
{
    scale_rows<<<(n + 255) / 256, 256>>>(out, in, row_scale, n, cols);
}
