// The kernel of runtime_launch_good.cu launched with a 2-D block of 32 x 8:
// eight threads (one per row) have threadIdx.x == 0, and all of them store the
// base they each took.
__global__ void drain(int* __restrict__ head, const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ int s_base;
  for (;;) {
    __syncthreads();
    if (threadIdx.x == 0) s_base = atomicAdd(head, 256);  // expect: CL302
    __syncthreads();
    int i = s_base + threadIdx.x + blockDim.x * threadIdx.y;
    if (s_base >= n) return;
    if (i < n) out[i] = 2.0f * in[i];
  }
}

void run_drain(int* head, const float* in, float* out, int n, int blocks, cudaStream_t stream) {
  void* args[] = {&head, &in, &out, &n};
  cudaLaunchKernel((void*)drain, dim3(blocks), dim3(32, 8), args, 0, stream);
}
