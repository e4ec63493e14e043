// 2:1 downsample (average of neighbouring pairs) launched with one thread per
// INPUT sample. Each pair of lanes combines its values with a shuffle and then
// both lanes store the same output element out[i / 2].

__global__ void downsample2x(const float* __restrict__ in, float* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  float partner = __shfl_xor_sync(0xffffffff, v, 1);
  if (i < n) out[i / 2] = 0.5f * (v + partner);  // expect: CL302
}

void run_downsample2x(const float* in, float* out, int n) {
  downsample2x<<<(n + 255) / 256, 256>>>(in, out, n);
}
