// A group-quantised product: each thread takes 8 inputs and reads the (scale, offset) pair of
// their group, groups being `ic / num_groups` inputs wide. How far apart the lanes' pairs are is a
// quotient of two sizes the caller passes (1 only where the groups are one input wide, which the
// host never does): no figure of cudalint's own choice makes it a finding. The inputs, 8 per
// thread side by side, are read 32 bytes apart, whatever the sizes.
__global__ void gemv_q(const float *in, const float2 *params, float *out, int ic, int num_groups)
{
    int oc = blockIdx.x;
    int group = ic / num_groups;
    float acc = 0.f;
    for (int k = threadIdx.x * 8; k < ic; k += blockDim.x * 8) {
        float2 p = params[oc * num_groups + k / group];
        float s = 0.f;
        for (int j = 0; j < 8; ++j)
            s += in[k + j];  // expect: CL101
        acc += p.x * s + p.y;
    }
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xffffffff, acc, o);
    if (threadIdx.x == 0)
        out[oc] = acc;
}

void run_gemv_q(const float *in, const float2 *params, float *out, int ic, int oc, int num_groups)
{
    gemv_q<<<oc, 32>>>(in, params, out, ic, num_groups);
}
