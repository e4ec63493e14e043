// expect-clean
// Each lane reads the x, y and z of its own float4 in a shared tile. With nothing stored to the
// tile between the reads, nvcc serves them as one 16-byte load per lane (LDS.128), and reads the
// same members again from registers: a warp's 512 consecutive bytes, no bank conflict.
__global__ void centre_points(const float4 *pts, const float *off, float *out, int n)
{
    __shared__ float4 tile[4][32];
    int w = threadIdx.x / 32;
    int p = threadIdx.x % 32;
    int g = blockIdx.x * 4 + w;
    int i = g * 32 + p;
    if (i < n)
        tile[w][p] = pts[i];
    __syncthreads();
    if (i < n) {
        float mx = tile[w][p].x - off[0];
        float my = tile[w][p].y - off[1];
        float mz = tile[w][p].z - off[2];
        float cx = tile[w][p].x - off[3];
        out[0 * n + i] = mx;
        out[1 * n + i] = my;
        out[2 * n + i] = mz;
        out[3 * n + i] = cx;
    }
}

void launch(const float4 *pts, const float *off, float *out, int n)
{
    centre_points<<<(n + 127) / 128, 128>>>(pts, off, out, n);
}
