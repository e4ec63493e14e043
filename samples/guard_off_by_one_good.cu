// expect-clean
// `>=`: every thread past the last element returns.
__global__ void residual(float* out, const float* inp1, const float* inp2, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= N) return;
  out[idx] = inp1[idx] + inp2[idx];
}

void residual_forward(float* out, const float* inp1, const float* inp2, int N) {
  const int block_size = 256;
  const int grid_size = (N + block_size - 1) / block_size;
  residual<<<grid_size, block_size>>>(out, inp1, inp2, N);
}
