// The same pair with its second field taken from each thread's own channel: the threads of a
// group store different pairs to one element, and all but one of them are lost.
__global__ void group_stats(const float *red, const float *x, float2 *stats, int cpg, float inv)
{
    int ci = blockIdx.x * 128 + threadIdx.x * 2;
    int gi = ci / cpg;
    float sum = red[gi];
    float2 s;
    s.x = sum * inv;
    s.y = x[blockIdx.x * 64 + threadIdx.x];
    stats[gi] = s;   // expect: CL302
}

void run(const float *red, const float *x, float2 *stats)
{
    group_stats<<<4, 64>>>(red, x, stats, 16, 0.5f);
}
