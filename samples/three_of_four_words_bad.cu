// The same tile, two of each thread's four words read (`w[t]` and `w[t + 2]`): nvcc makes two 4-byte
// loads (LDS, LDS in the SASS), and each is 4-way: the lanes of a warp are 16 B apart, on eight
// banks, four lanes to a bank.
__global__ void weigh2(const float4* __restrict__ in, float* __restrict__ out, int n)
{
    __shared__ float w[1024];
    const int t = threadIdx.x * 4;
    reinterpret_cast<float4*>(w)[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    float s = w[t] * 3.0f;  // expect: CL401
    s += w[t + 2] * 7.0f;  // expect: CL401
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = s;
}

void run_weigh2(const float4* in, float* out)
{
    weigh2<<<64, 256>>>(in, out, 64 * 256);
}
