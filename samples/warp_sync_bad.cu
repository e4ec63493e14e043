// Like warp_rotate, but each thread reads the element of the thread 32 places
// ahead, which belongs to the next warp: __syncwarp() does not order threads of
// different warps, so the read can see the old value.
#define THREADS 256

__global__ void block_rotate(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float buf[THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  buf[threadIdx.x] = v * v;
  __syncwarp();
  float next = buf[(threadIdx.x + 32) % THREADS];  // expect: CL501
  if (i < n) out[i] = v + next;
}

void run_block_rotate(const float* in, float* out, int n) {
  block_rotate<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
