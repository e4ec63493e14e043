// Points stored as float3, one point per thread. A float3 is 12 bytes aligned to 4: nvcc moves it
// as three 4-byte loads, and each of them spreads a warp over 384 bytes (12 sectors where 4 would
// do). The same holds for the store of the result.
__global__ void translate(const float3 *points, float3 *out, float3 offset, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float3 p = points[i];       // expect: CL101
        out[i] = make_float3(p.x + offset.x, p.y + offset.y, p.z + offset.z);   // expect: CL101
    }
}

void run_translate(const float3 *points, float3 *out, float3 offset, int n)
{
    translate<<<(n + 255) / 256, 256>>>(points, out, offset, n);
}
