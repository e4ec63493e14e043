// A grid-stride loop whose bound is off by one: the thread at i == n runs one element past the
// end. With a fixed grid larger than n that thread sits in a block in the middle of the grid.
#include <cstdlib>

__global__ void increment(int* v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * gridDim.x)
    v[i] += 1;  // expect: CL201
}

int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* v;
  cudaMalloc(&v, n * sizeof(int));
  increment<<<64, 256>>>(v, n);
  return 0;
}
