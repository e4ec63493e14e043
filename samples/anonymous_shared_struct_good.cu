// expect-clean
// A `__shared__` struct defined in place, with no name of its own: thread 0
// clears `s.done` while every thread fills its own slot of `s.a`. The two
// members lie at different bytes, so nothing is written twice before the
// barrier.
__global__ void gather(const int* in, int* out)
{
    __shared__ struct
    {
        int a[256];
        int done;
    } s;
    if (threadIdx.x == 0)
    {
        s.done = 0;
    }
    s.a[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * 256 + threadIdx.x] = s.a[255 - threadIdx.x] + s.done;
}

void run(const int* in, int* out, int blocks) { gather<<<blocks, 256>>>(in, out); }
