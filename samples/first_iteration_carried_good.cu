// The same wrapped walk with consecutive lanes on consecutive elements: `s` starts at `gid` and
// steps by the whole grid modulo `size`. The first iteration reads `data[gid]`: one 128-byte line a
// warp, the ideal.
__global__ void read_unit(const float *data, float *out, int size, int repeat)
{
    const int gid = threadIdx.x + blockDim.x * blockIdx.x;
    float sum = 0.f;
    int s = gid;
    for (int j = 0; j < repeat; ++j) {
        sum += data[s & (size - 1)];
        s = (s + blockDim.x * gridDim.x) & (size - 1);
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
// expect-clean
