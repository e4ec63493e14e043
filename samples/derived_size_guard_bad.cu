// The launcher passes both the full length and the third it works on; the grid is sized from the
// third, and the guard is off by one: thread `count` runs whenever the third is no multiple of the
// block.
__global__ void scale_third(float* out, const float* in, int count, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= count)
        out[i] = in[i] * n;  // expect: CL202
}

void scale_third_launch(float* out, const float* in, int n)
{
    int count = n / 3;
    scale_third<<<(count + 127) / 128, 128>>>(out, in, count, n);
}
