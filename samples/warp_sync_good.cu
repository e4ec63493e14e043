// expect-clean
// Warp-synchronous code that needs no block barrier: each thread first reads
// back only what it stored itself, then lanes exchange data within their own
// warp's slice of shared memory, ordered by __syncwarp().
#define THREADS 256

__global__ void warp_rotate(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float buf[THREADS];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  int warp = threadIdx.x / 32;
  float v = 0.0f;
  if (i < n) v = in[i];
  buf[threadIdx.x] = v * v;
  float own = buf[threadIdx.x];          // own element: no barrier needed
  __syncwarp();
  float next = buf[warp * 32 + (lane + 1) % 32];   // a neighbour in the same warp
  if (i < n) out[i] = own + next;
}

void run_warp_rotate(const float* in, float* out, int n) {
  warp_rotate<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
