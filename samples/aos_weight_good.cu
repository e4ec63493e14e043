// expect-clean
// The same field kept in an array of its own (a struct of arrays): a warp reads
// 32 consecutive floats, 4 sectors per request, the ideal.
struct Particles {
  float* x;
  float* y;
  float* z;
  float* weight;
};

// cudalint: param n=1048576
__global__ void total_weight_soa(const float* __restrict__ weight, float* __restrict__ w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    w[i] = 2.0f * weight[i];
  }
}

void run_total_weight_soa(Particles p, float* w, int n) {
  total_weight_soa<<<(n + 255) / 256, 256>>>(p.weight, w, n);
}
