// expect-clean
// A persistent kernel launched through the runtime API, as libraries that pick
// the grid from occupancy do: `cudaLaunchKernel((void*)k, grid, block, args, ...)`
// with the arguments' addresses in `void* args[]`. The launch gives a 1-D block
// of 256, so only one thread has threadIdx.x == 0 and stores the work base.
__global__ void drain(int* __restrict__ head, const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ int s_base;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) s_base = atomicAdd(head, 256);
    __syncthreads();
    int i = s_base + threadIdx.x + blockDim.x * threadIdx.y;
    if (s_base >= n) return;
    if (i < n) out[i] = 2.0f * in[i];
  }
}

void run_drain(int* head, const float* in, float* out, int n, int blocks, cudaStream_t stream) {
  void* args[] = {&head, &in, &out, &n};
  cudaLaunchKernel((void*)drain, dim3(blocks), dim3(256), args, 0, stream);
}
