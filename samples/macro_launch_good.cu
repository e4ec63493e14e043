// expect-clean
// The kernel is launched through a macro (`LAUNCH_REVERSE(kernel)`), as
// dispatch code often does. cudalint reads the launch in the macro's
// expansion where the macro is called: a block of 128 threads, one per slot
// of the shared buffer.
#define THREADS 128
#define LAUNCH_REVERSE(k) k<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n)

__global__ void reverse_chunks(const float* in, float* out, int n)
{
    __shared__ float buf[128];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    if (i < n)
        out[i] = buf[blockDim.x - 1 - threadIdx.x];
}

void run(const float* in, float* out, int n)
{
    LAUNCH_REVERSE(reverse_chunks);
}
