// expect-clean
// The bounds test sits in a helper that returns whether the thread has an element and hands the
// index back through a reference: `if (!thread_index(count, tid)) return;` stops the threads past
// count, as `if (tid >= count) return;` would.
__device__ __forceinline__ bool thread_index(int count, int &tid)
{
    long long linear = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (linear >= count)
        return false;
    tid = (int)linear;
    return true;
}

__global__ void iota(int *indices, int count)
{
    int tid;
    if (!thread_index(count, tid))
        return;
    indices[tid] = tid;
}

void run_iota(int *indices, int count)
{
    iota<<<(count + 255) / 256, 256>>>(indices, count);
}
