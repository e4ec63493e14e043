// A kernel reads its rows through a small helper object whose constructor keeps the row's pointer
// and whose methods read through it. Each thread reads its own row of 32 floats: the lanes of a
// warp are 128 bytes apart, one sector each, in both the one-line method and the summing one.
struct Row {
    const float *p_;
    __device__ Row(const float *p) : p_(p) {}
    __device__ float at(int j) const { return p_[j]; }   // expect: CL101
    __device__ float sum() const
    {
        float s = 0.f;
        for (int j = 0; j < 32; ++j)
            s += p_[j];   // expect: CL101
        return s;
    }
};

__global__ void row_stats(const float *x, float *first, float *total, int rows)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    Row row(x + r * 32);
    first[r] = row.at(0);
    total[r] = row.sum();
}

void run(const float *x, float *first, float *total, int rows)
{
    row_stats<<<(rows + 255) / 256, 256>>>(x, first, total, rows);
}
