// expect-clean
// Each thread reserves room for its items: it stores its (start, count) record as one 8-byte
// `int2`, then tests the start it just stored. The reads of `rec[i].x` that follow read what this
// thread stored, with nothing between that could change it: nvcc keeps the value in a register,
// and those 4-byte reads 8 bytes apart are no memory requests (no ld.global in the PTX).
__global__ void reserve(const int *counts, int *cursor, int2 *rec, int *items, int m, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    int cnt = counts[i];
    rec[i] = make_int2(atomicAdd(cursor, cnt), cnt);
    if (rec[i].x >= cap) return;
    int *dst = items + rec[i].x;
    if (rec[i].x + cnt >= cap) cnt = cap - rec[i].x;
    for (int k = 0; k < cnt; ++k)
        dst[k] = i;
}

void run_reserve(const int *counts, int *cursor, int2 *rec, int *items, int m, int cap)
{
    reserve<<<(m + 255) / 256, 256>>>(counts, cursor, rec, items, m, cap);
}
