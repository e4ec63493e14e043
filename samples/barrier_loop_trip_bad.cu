// Block-stride loop with a barrier inside: thread t runs (n - t + 255) / 256
// iterations, so when n is not a multiple of the block size the last iteration
// reaches the barrier in some threads only.
#define THREADS 256

__global__ void stage_and_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float buf[THREADS];
  float acc = 0.0f;
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    buf[threadIdx.x] = in[blockIdx.x * n + i];
    __syncthreads();  // expect: CL502
    acc += buf[(threadIdx.x + 1) % THREADS];
    __syncthreads();  // expect: CL502
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

// cudalint: param n=1000
void run_stage_and_sum(const float* in, float* out, int n, int rows) {
  stage_and_sum<<<rows, THREADS>>>(in, out, n);
}
