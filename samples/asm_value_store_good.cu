// expect-clean
// Merging two attention partials: one row per threadIdx.y, and the 32 lanes of a row all store
// the row's merged log-sum-exp. The logarithm is inline PTX (`lg2.approx`), a function of its
// input alone: every lane of a row computes one value, so their stores to the row's slot lose
// nothing.
__device__ __forceinline__ float fast_log2(float x)
{
    float y;
    asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    return y;
}

__global__ void merge_lse(const float *lse_a, const float *lse_b, float *lse_out, int heads)
{
    int row = blockIdx.x * heads + threadIdx.y;
    float a = lse_a[row];
    float b = lse_b[row];
    float m = fmaxf(a, b);
    lse_out[row] = fast_log2(exp2f(a - m) + exp2f(b - m)) + m;
}

void run_merge_lse(const float *a, const float *b, float *out, int seqs)
{
    merge_lse<<<seqs, dim3(32, 8)>>>(a, b, out, 8);
}
