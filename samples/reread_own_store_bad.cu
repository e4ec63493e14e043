// The same reservation testing the record of the next thread (`rec[i + 1].x`), which this thread
// did not store: a real 4-byte read of every other word, twice the sectors the starts need.
__global__ void reserve(const int *counts, int *cursor, int2 *rec, int *items, int m, int cap)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= m) return;
    int cnt = counts[i];
    rec[i] = make_int2(atomicAdd(cursor, cnt), cnt);
    if (i + 1 < m && rec[i + 1].x >= cap) return;  // expect: CL101
    int *dst = items + rec[i].x;
    if (rec[i].x + cnt >= cap) cnt = cap - rec[i].x;
    for (int k = 0; k < cnt; ++k)
        dst[k] = i;
}

void run_reserve(const int *counts, int *cursor, int2 *rec, int *items, int m, int cap)
{
    reserve<<<(m + 255) / 256, 256>>>(counts, cursor, rec, items, m, cap);
}
