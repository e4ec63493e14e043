// A block barrier inside the grid's tail guard, with work after the guard: the grid rounds n up to
// whole blocks of 256, and wherever n is not a multiple of 256 the last block's threads past n skip
// the barrier the others wait at and go on to the count below (synccheck: divergent threads).
__global__ void reverse_blocks(float* __restrict__ data, int* __restrict__ visits, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = data[i];
    __syncthreads();  // expect: CL502
    data[i] = s[255 - threadIdx.x];
  }
  if (threadIdx.x == 0) visits[blockIdx.x] += 1;
}

void run_reverse(float* d, int* visits, int n) { reverse_blocks<<<(n + 255) / 256, 256>>>(d, visits, n); }
