// expect-clean
// Each thread reads three of the four words of its own 16-byte group of a shared tile (`w[t]`,
// `w[t + 1]`, `w[t + 2]` with t = 4 * threadIdx.x, the array 16-byte aligned). nvcc serves the three
// loads as one 16-byte load (LDS.128 in the SASS for sm_80 and sm_90), the fourth word read and
// unused: a quarter-warp's eight lanes read 128 contiguous bytes, no bank conflict. Read one word at a
// time, lanes 16 B apart would be 4-way.
__global__ void weigh3(const float4* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float w[1024];
    const int t = threadIdx.x * 4;
    reinterpret_cast<float4*>(w)[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    float s = w[t] * 3.0f;
    s += w[t + 1] * 5.0f;
    s += w[t + 2] * 7.0f;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = s;
}

void run_weigh3(const float4* in, float* out)
{
    weigh3<<<64, 256>>>(in, out, 64 * 256);
}
