// expect-clean
// Whatever grid the command line asks for, the guard keeps every thread inside the graph.
#include <cstdio>
#include <cstdlib>

__global__ void degrees(const int* offsets, int* degree, int nodes) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < nodes) degree[v] = offsets[v + 1] - offsets[v];
}

int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb");
  int nodes;
  if (fread(&nodes, sizeof(int), 1, f) != 1) return 1;
  int threads = atoi(argv[2]);
  int blocks = atoi(argv[3]);
  int *d_offsets, *d_degree;
  cudaMalloc(&d_offsets, (nodes + 1) * sizeof(int));
  cudaMalloc(&d_degree, (nodes + 1) * sizeof(int));
  degrees<<<blocks, threads>>>(d_offsets, d_degree, nodes);
  return 0;
}
