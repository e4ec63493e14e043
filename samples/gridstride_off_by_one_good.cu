// expect-clean
// The grid-stride loop stops at the last element, whatever n the user gives.
#include <cstdlib>

__global__ void increment(int* v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v[i] += 1;
}

int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* v;
  cudaMalloc(&v, n * sizeof(int));
  increment<<<64, 256>>>(v, n);
  return 0;
}
