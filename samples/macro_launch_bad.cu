// The same launch macro with 256 threads a block: the shared buffer holds
// 128, and threads 128 to 255 store past it.
#define THREADS 256
#define LAUNCH_REVERSE(k) k<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n)

__global__ void reverse_chunks(const float* in, float* out, int n)
{
    __shared__ float buf[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;  // expect: CL201
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];  // expect: CL201
}

void run(const float* in, float* out, int n)
{
    LAUNCH_REVERSE(reverse_chunks);
}
