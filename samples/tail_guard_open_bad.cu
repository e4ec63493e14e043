// The problem size comes from the caller and nothing in the program makes it a multiple of the
// block: the rounded-up grid adds threads past n, and no guard stops them.
__global__ void add_noguard(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i] + b[i];  // expect: CL202
}

void add(const float* a, const float* b, float* c, int n) {
  add_noguard<<<(n + 255) / 256, 256>>>(a, b, c, n);
}
