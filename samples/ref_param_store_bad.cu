// A helper writes its result through a reference parameter (`float &r`): the call passes an
// element of `out`, so the helper's assignment is a store to it. Two threads pass the same
// element (`out[i / 2]`) and store different values there.
__device__ void put(float v, float &r)
{
    r = 2.0f * v;       // expect: CL302
}

__global__ void halve(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        put(in[i], out[i / 2]);
}

void launch(const float *in, float *out, int n)
{
    halve<<<(n + 255) / 256, 256>>>(in, out, n);
}
