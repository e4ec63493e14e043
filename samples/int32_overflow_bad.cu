// Bias add over a 65536 x 65536 matrix (16 GiB of floats: fits on an 80 GB
// GPU). row * N is computed in 32-bit int and reaches 65535 * 65536, which
// overflows INT_MAX long before the end of the matrix.

// cudalint: param M=65536 N=65536
__global__ void add_bias(float* __restrict__ out, const float* __restrict__ in,
                         const float* __restrict__ bias, int M, int N) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < M && col < N) {
    float b = bias[col];
    out[row * N + col] = in[row * N + col] + b;  // expect: CL203
  }
}

void run_add_bias(float* out, const float* in, const float* bias, int M, int N) {
  dim3 block(32, 8);
  dim3 grid((N + 31) / 32, (M + 7) / 8);
  add_bias<<<grid, block>>>(out, in, bias, M, N);
}
