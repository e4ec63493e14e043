// The same launcher with the kernel's guard left out: the threads the rounding adds past `len / 8`
// run, and nothing says where the arrays end; the grid's size is all there is to go by.
__global__ void fma3(float *out, const float *a, const float *b, int len)
{
    const int i = blockDim.x * blockIdx.x + threadIdx.x;
    out[i] += a[i] * b[i];          // expect: CL202
}

void run_first_eighth(float *out, const float *a, const float *b, int h, int w)
{
    const int len = h * w;
    const int items = len / 8;
    fma3<<<(items + 255) / 256, 256>>>(out, a, b, len);
}
