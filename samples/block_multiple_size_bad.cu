// The same reduction where the work is `points * group + 1` (a header element): the last block is
// partly past the end, and its threads past the end leave the loop before the barriers the
// others wait at.
template <unsigned GROUP>
__global__ void group_sum(int n, const float *in, float *out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        __shared__ float cache[GROUP];
        cache[threadIdx.x] = in[i];
        __syncthreads();   // expect: CL502
        if (threadIdx.x == 0) {
            float s = 0.f;
            for (unsigned t = 0; t < GROUP; ++t)
                s += cache[t];
            out[i / GROUP] = s;
        }
        __syncthreads();   // expect: CL502
    }
}

void launch(int points, int group, const float *in, float *out)
{
    const int n = points * group + 1;
    switch (group) {
    case 32:
        group_sum<32><<<(n + 31) / 32, 32>>>(n, in, out);
        break;
    case 64:
        group_sum<64><<<(n + 63) / 64, 64>>>(n, in, out);
        break;
    default:
        break;
    }
}
