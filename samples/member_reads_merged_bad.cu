// The same member reads, each feeding a shared atomic before the next is read: the atomics keep
// nvcc from merging them, so each is a 4-byte load with lanes 16 bytes apart, and lanes i, i + 8,
// i + 16 and i + 24 meet in one bank.
__global__ void pillar_sum(const float4 *pts, float4 *sums, int n)
{
    __shared__ float4 tile[4][32];
    __shared__ float4 sum[4];
    int w = threadIdx.x / 32;
    int p = threadIdx.x % 32;
    int g = blockIdx.x * 4 + w;
    if (threadIdx.x < 4)
        sum[threadIdx.x] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    tile[w][p] = pts[g * 32 + p];
    __syncthreads();
    atomicAdd(&sum[w].x, tile[w][p].x);     // expect: CL401
    atomicAdd(&sum[w].y, tile[w][p].y);     // expect: CL401
    atomicAdd(&sum[w].z, tile[w][p].z);     // expect: CL401
    __syncthreads();
    if (p == 0)
        sums[g] = sum[w];
}

void launch(const float4 *pts, float4 *sums, int pillars)
{
    pillar_sum<<<pillars / 4, 128>>>(pts, sums, pillars);
}
