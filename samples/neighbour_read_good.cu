// expect-clean
// The edge decides whether the neighbour is read at all.
__global__ void smooth(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float left = i > 0 ? in[i - 1] : 0.f;
  float right = i + 1 < n ? in[i + 1] : 0.f;
  out[i] = (left + in[i] + right) / 3.f;
}

void run(const float* h_in, float* h_out, int n) {
  float *d_in, *d_out;
  cudaMalloc(&d_in, n * sizeof(float));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
  smooth<<<(n + 255) / 256, 256>>>(d_in, d_out, n);
  cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
}
