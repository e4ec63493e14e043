// The guard lets thread n through but the host allocates only n elements: whenever the grid has a
// thread at i == n, it writes one past the end.
#include <cstdlib>

__global__ void clear_offsets(int* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) offsets[i] = 0;  // expect: CL201
}

int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* offsets;
  cudaMalloc(&offsets, n * sizeof(int));
  clear_offsets<<<(n + 256) / 256, 256>>>(offsets, n);
  return 0;
}
