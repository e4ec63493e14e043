// Boxes copied one a thread, clamped to the unit square when the launch asks for it: this launch
// passes `true`, so the clamped arm runs, and it writes each 16-byte record field by field, lanes
// 16 bytes apart: 16 sectors a warp store where 4 would do.
__global__ void copy_boxes(const float4 *in, int n, bool clip, float *out)
{
    const int g = blockIdx.x * blockDim.x + threadIdx.x;
    if (g >= n)
        return;
    const float4 b = in[g];
    if (clip) {
        out[g * 4 + 0] = fminf(fmaxf(b.x, 0.f), 1.f);   // expect: CL101
        out[g * 4 + 1] = fminf(fmaxf(b.y, 0.f), 1.f);
        out[g * 4 + 2] = fminf(fmaxf(b.z, 0.f), 1.f);
        out[g * 4 + 3] = fminf(fmaxf(b.w, 0.f), 1.f);
    } else {
        reinterpret_cast<float4 *>(out)[g] = b;
    }
}

void run(const float4 *in, int n, float *out)
{
    copy_boxes<<<(n + 127) / 128, 128>>>(in, n, true, out);
}
