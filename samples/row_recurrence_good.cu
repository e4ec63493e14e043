// A first-order recurrence along each row of an N x N grid, one row per thread: column 0 is the
// seed, and the loop runs from column 1 to the row's end. The loop's start leaves the seed column
// out on purpose: the rows are N wide and the stride is N (no CL301). A row per thread is read
// 4 KiB apart across the warp, which CL101 reports.
#define N 1024

__global__ void sweep(const float *a, float *x)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < N) {
        for (int c = 1; c < N; c++)
            x[r * N + c] = x[r * N + c] - x[r * N + c - 1] * a[r * N + c];  // expect: CL101
    }
}

void run_sweep(const float *a, float *x)
{
    sweep<<<N / 256, 256>>>(a, x);
}
