// capped_counter_good.cu without the cap: every positive value is kept, and with more than MAXV of
// them in a column vals[count] runs past the array (up to vals[63]).
#define MAXV 4

__global__ void first_positive(const float* __restrict__ in, float* __restrict__ out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  float vals[MAXV];
  int count = 0;
  for (int k = 0; k < 64; ++k) {
    float v = in[k * n + idx];
    if (v > 0.f) {
      vals[count] = v;  // expect: CL201
      count++;
    }
  }
  for (int i = 0; i < count && i < MAXV; ++i) out[i * n + idx] = vals[i];
}

void run_first_positive(const float* in, float* out, int n) { first_positive<<<(n + 127) / 128, 128>>>(in, out, n); }
