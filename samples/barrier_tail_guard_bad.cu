// A block barrier inside the grid's tail guard: the grid rounds n up to whole blocks of 256, and
// wherever n is not a multiple of 256 the last block's threads past n skip the barrier the others
// wait at.
__global__ void reverse_blocks(float* __restrict__ data, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = data[i];
    __syncthreads();  // expect: CL502
    data[i] = s[255 - threadIdx.x];
  }
}

void run_reverse(float* d, int n) { reverse_blocks<<<(n + 255) / 256, 256>>>(d, n); }
