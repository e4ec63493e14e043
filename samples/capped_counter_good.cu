// expect-clean
// Each thread keeps the first MAXV positive values of its column: `count` is stepped only under
// `count < MAXV`, so it never passes MAXV however many values are positive, and vals[count] stays
// inside (as does the copy loop up to count).
#define MAXV 4

__global__ void first_positive(const float* __restrict__ in, float* __restrict__ out, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n) return;
  float vals[MAXV];
  int count = 0;
  for (int k = 0; k < 64; ++k) {
    float v = in[k * n + idx];
    if (v > 0.f && count < MAXV) {
      vals[count] = v;
      count++;
    }
  }
  for (int i = 0; i < count; ++i) out[i * n + idx] = vals[i];
}

void run_first_positive(const float* in, float* out, int n) { first_positive<<<(n + 127) / 128, 128>>>(in, out, n); }
