// expect-clean
// The guard lets thread n through on purpose: the host allocates n + 1 elements (a CSR offset
// array, a prefix sum with its total), so the thread past the size still writes inside.
#include <cstdlib>

__global__ void clear_offsets(int* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) offsets[i] = 0;
}

int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* offsets;
  cudaMalloc(&offsets, (n + 1) * sizeof(int));
  clear_offsets<<<(n + 256) / 256, 256>>>(offsets, n);
  return 0;
}
