// expect-clean
// The same points padded to float4 (16 bytes, aligned to 16): one 16-byte load per point, and a
// warp's loads cover 512 contiguous bytes, every byte used.
__global__ void translate(const float4 *points, float4 *out, float3 offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float4 p = points[i];
        out[i] = make_float4(p.x + offset.x, p.y + offset.y, p.z + offset.z, p.w);
    }
}

void run_translate(const float4 *points, float4 *out, float3 offset, int n)
{
    translate<<<(n + 255) / 256, 256>>>(points, out, offset, n);
}
