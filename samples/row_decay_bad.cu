// Each warp hands the helper the row of the next warp: that row was stored by another warp, and
// __syncwarp orders one warp only, so the read may come before the other warp's store.
__device__ float row_sum(const float *row, int lane)
{
    return lane < 9 ? row[lane] : 0.0f;     // expect: CL501
}

__global__ void next_warp_rows(const float *in, float *out, int n)
{
    __shared__ float rows[4][9];
    const int warp = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane < 9)
        rows[warp][lane] = i < n ? in[i] : 0.0f;
    __syncwarp();
    float v = row_sum(rows[(warp + 1) & 3], lane);
    if (i < n)
        out[i] = v;
}

void launch(const float *in, float *out, int n)
{
    next_warp_rows<<<(n + 127) / 128, 128>>>(in, out, n);
}
