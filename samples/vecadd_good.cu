// expect-clean
// The hello-world kernel: one thread per element, ceil-div grid, tail guard.

__global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b,
                       float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

void run_vecadd(const float* a, const float* b, float* c, int n) {
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vecadd<<<blocks, threads>>>(a, b, c, n);
}
