// expect-clean
// The same kernels with the update made atomic: `atomicAdd` returns the slot each thread owns and
// adds each block's part without losing one. A flag that any thread may set (`*changed = 1`)
// stores one value whichever thread stores it, and a kernel launched with one thread updates the
// counter alone.
__global__ void collect_changed(const int *old_label, const int *new_label, int *worklist, int *count,
                                int *any_changed, int num_vertices)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < num_vertices) {
        int changed = old_label[v] != new_label[v];
        if (changed) {
            int slot = atomicAdd(count, 1);
            worklist[slot] = v;
            any_changed[0] = 1;
        }
    }
}

__global__ void block_total(const float *x, float *total, int n)
{
    __shared__ float part[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    part[threadIdx.x] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            part[threadIdx.x] += part[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(total, part[0]);
}

__global__ void count_serial(const int *flags, int *count, int n)
{
    for (int i = 0; i < n; i++) {
        if (flags[i])
            count[0] = count[0] + 1;
    }
}

void run_collect_changed(const int *old_label, const int *new_label, int *worklist, int *count, int *any, int n)
{
    collect_changed<<<(n + 255) / 256, 256>>>(old_label, new_label, worklist, count, any, n);
}

void run_block_total(const float *x, float *total, int n)
{
    block_total<<<(n + 255) / 256, 256>>>(x, total, n);
}

void run_count_serial(const int *flags, int *count, int n)
{
    count_serial<<<1, 1>>>(flags, count, n);
}
