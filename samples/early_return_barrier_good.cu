// expect-clean
// 1D three-point smoothing through shared memory. Threads past the end of the array return
// early, then the rest wait at __syncthreads(). Threads that have exited count as arrived at a
// barrier on sm_70 and later (PTX `bar.sync`), so the last block does not hang when compiled for
// those (cudalint's default target is sm_90; with `-D __CUDA_ARCH__=600` it reports CL502 here).
#define THREADS 256

__global__ void smooth3(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float buf[THREADS + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  buf[threadIdx.x + 1] = in[i];
  if (threadIdx.x == 0) buf[0] = (i > 0) ? in[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) buf[THREADS + 1] = (i + 1 < n) ? in[i + 1] : 0.0f;
  __syncthreads();
  out[i] = (buf[threadIdx.x] + buf[threadIdx.x + 1] + buf[threadIdx.x + 2]) / 3.0f;
}

// cudalint: param n=1000
void run_smooth3(const float* in, float* out, int n) {
  smooth3<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
