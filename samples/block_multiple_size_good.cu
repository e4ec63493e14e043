// A per-group reduction in a grid-stride loop with barriers inside: safe only if every block is
// full. The host sizes the work as `n = points * group` and launches `group` threads a block in
// the `case` of that group size, so n is a multiple of the block and no block is partly past the
// end: every thread of every block reaches each barrier.
template <unsigned GROUP>
__global__ void group_sum(int n, const float *in, float *out)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        __shared__ float cache[GROUP];
        cache[threadIdx.x] = in[i];
        __syncthreads();
        if (threadIdx.x == 0) {
            float s = 0.f;
            for (unsigned t = 0; t < GROUP; ++t)
                s += cache[t];
            out[i / GROUP] = s;
        }
        __syncthreads();
    }
}

void launch(int points, int group, const float *in, float *out)
{
    const int n = points * group;
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
// expect-clean
