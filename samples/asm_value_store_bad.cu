// The same merge with the helper mixing in the lane's number (`%laneid`, read by the PTX): each
// lane of a row now stores its own value to the row's slot, and which one survives is unspecified.
__device__ __forceinline__ float fast_log2(float x)
{
    float y;
    unsigned lane;
    asm("lg2.approx.f32 %0, %1;" : "=f"(y) : "f"(x));
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    return y + 1e-7f * lane;
}

__global__ void merge_lse(const float *lse_a, const float *lse_b, float *lse_out, int heads)
{
    int row = blockIdx.x * heads + threadIdx.y;
    float a = lse_a[row];
    float b = lse_b[row];
    float m = fmaxf(a, b);
    lse_out[row] = fast_log2(exp2f(a - m) + exp2f(b - m)) + m;  // expect: CL302
}

void run_merge_lse(const float *a, const float *b, float *out, int seqs)
{
    merge_lse<<<seqs, dim3(32, 8)>>>(a, b, out, 8);
}
