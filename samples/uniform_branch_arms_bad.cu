// A suppression step where the test reads the thread's own score: threads of one block take both
// arms in one iteration, so thread 0 clears the flag while other threads may swap it with an
// atomic, with no barrier between: the plain store races with the atomics.
__global__ void suppress(const float *conf, const float *overlap, int top_k, bool *keep)
{
    __shared__ int flag;
    const int tid = threadIdx.x;
    if (tid == 0)
        flag = 1;
    __syncthreads();
    for (int r = 1; r < top_k; r++) {
        __syncthreads();
        if (conf[blockIdx.x * top_k + r + tid] > 0.5f) {
            for (int p = tid; p < r; p += 256)
                if (overlap[r * top_k + p] > 0.5f)
                    atomicCAS(&flag, 1, 0);
        } else {
            if (tid == 0)
                flag = 0;   // expect: CL501
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
