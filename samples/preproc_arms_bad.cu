// The taken arm of the `#if` reads by column; the arm the compiler skips would be fine. Each
// arm opens its own loop, which splits the statement: the parse must see only the taken arm.
#define TRANSPOSED 1

__global__ void column_sum(float* out, const float* in, int n) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.0f;
#if TRANSPOSED
  for (int r = 0; r < n; ++r) {
    s += in[col * n + r];  // expect: CL101
#else
  for (int r = 0; r < n; ++r) {
    s += in[r * n + col];
#endif
  }
  out[col] = s;
}

void run(float* out, const float* in) {
  const int n = 4096;
  column_sum<<<n / 256, 256>>>(out, in, n);
}
