// expect-clean
// The grid rounds the size up to whole blocks, as for any size, yet nothing guards the tail: the
// kernel stays inside only because the program's sizes make B * T * C a multiple of 256. No
// warning (no value the program runs goes past), an info saying what keeps it inside.
__global__ void shift(float* out, const float* inp, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  out[idx] = inp[idx] + 1.0f;
}

int main() {
  int B = 8, T = 1024, C = 768;
  float *out, *inp;
  cudaMalloc(&out, B * T * C * sizeof(float));
  cudaMalloc(&inp, B * T * C * sizeof(float));
  const int block_size = 256;
  const int grid_size = (B * T * C + block_size - 1) / block_size;
  shift<<<grid_size, block_size>>>(out, inp, B, T, C);
  return 0;
}
