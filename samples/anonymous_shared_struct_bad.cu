// The same in-place `__shared__` struct read back with no barrier: thread 0
// reads `s.a[255]`, which thread 255 may not have stored yet.
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
    out[blockIdx.x * 256 + threadIdx.x] = s.a[255 - threadIdx.x] + s.done;  // expect: CL501
}

void run(const int* in, int* out, int blocks) { gather<<<blocks, 256>>>(in, out); }
