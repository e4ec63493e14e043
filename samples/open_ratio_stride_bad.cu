// The same product with a pair per input (`params[oc * ic + k]`): each lane's pair is 8 pairs
// from its neighbour's, 64 bytes apart whatever the sizes.
__global__ void gemv_q(const float *in, const float2 *params, float *out, int ic, int num_groups)
{
    int oc = blockIdx.x;
    int group = ic / num_groups;
    float acc = 0.f;
    for (int k = threadIdx.x * 8; k < ic; k += blockDim.x * 8) {
        float2 p = params[oc * ic + k];  // expect: CL101
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
