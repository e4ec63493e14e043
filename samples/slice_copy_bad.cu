// The same staging where each slice reads its own weight row (`weight[threadIdx.z * C + c]`) into
// the one shared row: threads that differ only in z load different values and store them to the
// same element, and which slice's row survives is unspecified.
__global__ void scale_tokens(const float* __restrict__ weight, const float* __restrict__ in,
                             float* __restrict__ out, int C, int N) {
  extern __shared__ float s_weight[];
  for (int c = threadIdx.x; c < C; c += blockDim.x) s_weight[c] = weight[threadIdx.z * C + c];  // expect: CL302
  __syncthreads();
  int t = blockIdx.x * blockDim.z + threadIdx.z;
  if (t >= N) return;
  for (int c = threadIdx.x; c < C; c += blockDim.x) out[t * C + c] = in[t * C + c] * s_weight[c];
}

void run(const float* w, const float* in, float* out, int N) {
  scale_tokens<<<(N + 3) / 4, dim3(32, 1, 4), 768 * sizeof(float)>>>(w, in, out, 768, N);
}
