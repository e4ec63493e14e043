// Each polygon owns a record of 9 index slots (mmcv's rotated-IoU vertex sort). The first loop
// writes all 9; the corner case of two identical boxes then rereads slots 0-3 and 4-7 and rewrites
// 4-8. Those accesses reach part of the record each, but the record is the program's layout and
// the thread's loops fill all of it: no slot is skipped (no CL301). A record per lane is read
// 36 bytes apart, which CL101 reports.
#define SLOTS 9

__global__ void sort_vertices(const int* __restrict__ order, const int* __restrict__ num_valid,
                              int* __restrict__ idx, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    for (int j = 0; j < SLOTS; ++j) idx[i * SLOTS + j] = order[i * SLOTS + j];  // expect: CL101
    if (num_valid[i] == 8) {
      int counter = 0;
      for (int j = 0; j < 4; ++j) {
        int check = idx[i * SLOTS + j];  // expect: CL101
        for (int k = 4; k < 8; ++k)
          if (idx[i * SLOTS + k] == check) counter++;  // expect: CL101
      }
      if (counter == 4) {
        idx[i * SLOTS + 4] = idx[i * SLOTS + 0];  // expect: CL101
        for (int j = 5; j < SLOTS; ++j) idx[i * SLOTS + j] = 0;  // expect: CL101
      }
    }
  }
}

void run(const int* order, const int* num_valid, int* idx, int n) {
  sort_vertices<<<1, 256>>>(order, num_valid, idx, n);
}
