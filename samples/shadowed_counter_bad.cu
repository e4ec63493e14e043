// The same loops where the pass moves the lane's own k on (`k++` after the inner loop): the k
// read in pass p is k + p, and the last pass reads src[3 * 8 + 7 + 3], past the 32 floats.
__global__ void accumulate(const float *src, float *dst)
{
    int k = threadIdx.x % 8;
    float acc = 0.0f;
    for (int p = 0; p < 4; p++) {
        acc += src[p * 8 + k];  // expect: CL201
        for (int j = 0; j < 8; j++)
            acc += 0.5f * j;
        k++;
    }
    dst[threadIdx.x] = acc;
}

void run_accumulate(float *dst)
{
    float *src;
    cudaMalloc(&src, 32 * sizeof(float));
    accumulate<<<1, 32>>>(src, dst);
}
