// Two tests of a size the build defines (`nvcc -DNODES=84`) that a launch passes both of: for any
// NODES of 12 or more, thread 0 fills the whole table while thread 1 stores its own word of it,
// with no barrier between (thread 0's store of word 1 and thread 1's).
__global__ void load_factors(const float* geo, float* out)
{
    __shared__ float facs[12];
    int n = threadIdx.x;
    if (NODES >= 12 && n == 0) {
        for (int m = 0; m < 12; ++m)
            facs[m] = geo[12 * blockIdx.x + m];
    }
    if (n < 12 && NODES >= 12) {
        facs[n] = geo[12 * blockIdx.x + n];  // expect: CL501
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + n] = facs[n % 12];
}

void load_factors_launch(const float* geo, float* out, int elements)
{
    load_factors<<<elements, 96>>>(geo, out);
}
