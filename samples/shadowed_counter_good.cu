// expect-clean
// A lane's offset k (0..7) read in every pass of the outer loop, and an inner loop that declares a
// k of its own (`for (int k = ...)`): the inner loop's counter is another variable, so the outer
// k never changes and every index stays below 32.
__global__ void accumulate(const float *src, float *dst)
{
    int k = threadIdx.x % 8;
    float acc = 0.0f;
    for (int p = 0; p < 4; p++) {
        acc += src[p * 8 + k];
        for (int k = 0; k < 8; k++)
            acc += 0.5f * k;
    }
    dst[threadIdx.x] = acc;
}

void run_accumulate(float *dst)
{
    float *src;
    cudaMalloc(&src, 32 * sizeof(float));
    accumulate<<<1, 32>>>(src, dst);
}
