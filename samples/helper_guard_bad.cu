// The helper tests the thread against the wrong size: it returns true for every thread of the
// last block when count is not a multiple of 256, and those threads store past count.
__device__ __forceinline__ bool thread_index(int count, int &tid)
{
    long long linear = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (linear >= (count + 255) / 256 * 256)
        return false;
    tid = (int)linear;
    return true;
}

__global__ void iota(int *indices, int count)
{
    int tid;
    if (!thread_index(count, tid))
        return;
    indices[tid] = tid;     // expect: CL202
}

void run_iota(int *indices, int count)
{
    iota<<<(count + 255) / 256, 256>>>(indices, count);
}
