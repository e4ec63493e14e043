// Greedy suppression, one box a block: whether box `r` is still a candidate is read from one
// address (`conf[blockIdx.x * top_k + r]`), the same value in every thread of the block, so in one
// iteration the whole block takes one arm: either threads race to clear the flag with atomics, or
// thread 0 clears it alone. The two arms never run in the same pass.
__global__ void suppress(const float *conf, const float *overlap, int top_k, bool *keep)
{
    __shared__ int flag;
    const int tid = threadIdx.x;
    if (tid == 0)
        flag = 1;
    __syncthreads();
    for (int r = 1; r < top_k; r++) {
        __syncthreads();
        if (conf[blockIdx.x * top_k + r] > 0.5f) {
            for (int p = tid; p < r; p += 256)
                if (overlap[r * top_k + p] > 0.5f)
                    atomicCAS(&flag, 1, 0);
        } else {
            if (tid == 0)
                flag = 0;
        }
        __syncthreads();
        if (tid == 0) {
            keep[blockIdx.x * top_k + r] = (flag == 1);
            flag = 1;
        }
        __syncthreads();
    }
}

void run(const float *conf, const float *overlap, int n, int top_k, bool *keep)
{
    suppress<<<n, 256>>>(conf, overlap, top_k, keep);
}
// expect-clean
