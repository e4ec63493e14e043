// Two arms chosen by a size the build defines (`nvcc -DNODES=84`): a small element gets its whole
// table filled by thread 0, a large one a word per thread. NODES is one value for the whole launch,
// so no launch runs both arms, and no word is stored twice.
__global__ void load_factors(const float* geo, float* out)
{
    __shared__ float facs[12];
    int n = threadIdx.x;
    if (NODES < 12 && n == 0) {
        for (int m = 0; m < 12; ++m)
            facs[m] = geo[12 * blockIdx.x + m];
    } else if (n < 12 && NODES >= 12) {
        facs[n] = geo[12 * blockIdx.x + n];
    }
    __syncthreads();
    out[blockIdx.x * blockDim.x + n] = facs[n % 12];
}

void load_factors_launch(const float* geo, float* out, int elements)
{
    load_factors<<<elements, 96>>>(geo, out);
}
// expect-clean
