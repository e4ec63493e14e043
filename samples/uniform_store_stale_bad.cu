// Every thread stores the same flag, then reads its neighbour's slot with no barrier: the value is
// one for the whole block, but the neighbour may not have stored it yet, and the read sees the
// slot's old content.
__global__ void mark_neighbour(int *out, int n)
{
    __shared__ int seen[256];
    seen[threadIdx.x] = 1;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = seen[(threadIdx.x + 1) % 256];     // expect: CL501
}

void launch(int *out, int n)
{
    mark_neighbour<<<(n + 255) / 256, 256>>>(out, n);
}
