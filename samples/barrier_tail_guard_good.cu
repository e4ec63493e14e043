// expect-clean
// barrier_tail_guard_bad.cu with the barrier outside the tail guard: every thread of every block
// reaches it, and only the loads and stores are guarded.
__global__ void reverse_blocks(float* __restrict__ data, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.x * blockDim.x + 255 - threadIdx.x;
  s[threadIdx.x] = i < n ? data[i] : 0.f;
  __syncthreads();
  if (i < n && j < n) data[i] = s[255 - threadIdx.x];
}

void run_reverse(float* d, int n) { reverse_blocks<<<(n + 255) / 256, 256>>>(d, n); }
