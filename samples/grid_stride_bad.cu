// SAXPY where every thread processes its own contiguous chunk of
// ITEMS_PER_THREAD elements ("each thread does 8 in a row"). Neighbouring lanes
// are 8 floats (32 bytes) apart, so each warp request touches 32 sectors
// instead of 4. Fix: grid-stride loop (grid_stride_good.cu).
#define ITEMS_PER_THREAD 8
#define THREADS 256

// cudalint: param n=1048576
__global__ void saxpy_chunked(int n, float a, const float* __restrict__ x,
                              float* __restrict__ y) {
  int base = (blockIdx.x * blockDim.x + threadIdx.x) * ITEMS_PER_THREAD;
  for (int k = 0; k < ITEMS_PER_THREAD; ++k) {
    int i = base + k;
    if (i < n) y[i] = a * x[i] + y[i];  // expect: CL101
  }
}

void run_saxpy(int n, float a, const float* x, float* y) {
  int per_block = THREADS * ITEMS_PER_THREAD;
  saxpy_chunked<<<(n + per_block - 1) / per_block, THREADS>>>(n, a, x, y);
}
