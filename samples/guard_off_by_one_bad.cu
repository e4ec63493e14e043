// `>` where `>=` is meant: the thread whose index is N passes the guard and touches element N,
// one past the end, whenever the grid has such a thread (N not a multiple of the block).
__global__ void residual(float* out, const float* inp1, const float* inp2, int N) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx > N) return;
  out[idx] = inp1[idx] + inp2[idx];  // expect: CL202
}

void residual_forward(float* out, const float* inp1, const float* inp2, int N) {
  const int block_size = 256;
  const int grid_size = (N + block_size - 1) / block_size;
  residual<<<grid_size, block_size>>>(out, inp1, inp2, N);
}
