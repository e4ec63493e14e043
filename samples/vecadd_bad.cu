// Vector add without the tail guard: the ceil-div grid rounds n = 1000 up to
// 1024 threads and the last 24 read and write past the end of the arrays.

__global__ void vecadd(const float* __restrict__ a, const float* __restrict__ b,
                       float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];  // expect: CL202
}

void run_vecadd(const float* a, const float* b, float* c, int n) {
  int threads = 256;
  int blocks = (n + threads - 1) / threads;
  vecadd<<<blocks, threads>>>(a, b, c, n);
}
