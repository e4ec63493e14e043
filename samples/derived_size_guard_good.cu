// expect-clean
// The launcher passes both the full length and the third it works on; the grid is sized from the
// third, and the kernel's guard reads the parameter that carries it: the guard keeps the rounded
// grid's extra threads out.
__global__ void scale_third(float* out, const float* in, int count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count)
        out[i] = in[i] * n;
}

void scale_third_launch(float* out, const float* in, int n)
{
    int count = n / 3;
    scale_third<<<(count + 127) / 128, 128>>>(out, in, count, n);
}
