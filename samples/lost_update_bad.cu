// Each vertex whose label changed bumps a shared counter and records itself in the worklist. The
// counter is read and written back without an atomic: two threads whose labels changed read the
// same count, one increment is lost, and both write the same worklist slot.
__global__ void collect_changed(const int *old_label, const int *new_label, int *worklist, int *count,
                                int num_vertices)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v < num_vertices) {
        int changed = old_label[v] != new_label[v];
        if (changed) {
            int slot = count[0];
            count[0] = slot + 1;        // expect: CL302
            worklist[slot] = v;
        }
    }
}

// Each block adds its partial sum to the total from one thread: the blocks race with each other.
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
        total[0] = total[0] + part[0];      // expect: CL302
}

void run_collect_changed(const int *old_label, const int *new_label, int *worklist, int *count, int n)
{
    collect_changed<<<(n + 255) / 256, 256>>>(old_label, new_label, worklist, count, n);
}

void run_block_total(const float *x, float *total, int n)
{
    block_total<<<(n + 255) / 256, 256>>>(x, total, n);
}
