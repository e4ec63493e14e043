// A bandwidth kernel whose position wraps around a power-of-two buffer: `s` starts at
// `gid * 512` and steps by 16 modulo `size`. The wrapped step is not followed from iteration to
// iteration, but the first iteration reads `data[gid * 512]` and its 15 neighbours: lanes 2048 bytes
// apart, 32 sectors a warp request where 4 would do.
__global__ void read_unit(const float *data, float *out, int size, int repeat)
{
    const int gid = threadIdx.x + blockDim.x * blockIdx.x;
    float sum = 0.f;
    int s = gid * 512;
    for (int j = 0; j < repeat; ++j) {
        sum += data[(s + 0) & (size - 1)];   // expect: CL101
        sum += data[(s + 1) & (size - 1)];   // expect: CL101
        s = (s + 16) & (size - 1);
    }
    out[gid] = sum;
}

void run(float *out)
{
    float *data;
    cudaMalloc(&data, (1 << 24) * sizeof(float));
    read_unit<<<64, 256>>>(data, out, 1 << 24, 10);
    cudaFree(data);
}
