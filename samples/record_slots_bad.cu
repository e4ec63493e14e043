// Each polygon owns a record of 9 index slots, but the loop that fills them stops at 8 (the
// record grew a slot, the loop bound did not): the last slot of every record is never written,
// and whatever was in memory there is read as an index later.
#define SLOTS 9

__global__ void sort_vertices(const int* __restrict__ order, int* __restrict__ idx, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    for (int j = 0; j < 8; ++j) idx[i * SLOTS + j] = order[i * 8 + j];  // expect: CL101, CL301
  }
}

void run(const int* order, int* idx, int n) {
  sort_vertices<<<1, 256>>>(order, idx, n);
}
