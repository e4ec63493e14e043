// expect-clean
// halo_shared_oob_bad.cu with a halo slot: the tile holds one element past the block's, loaded by
// thread 0, so thread 255's right neighbour s[256] is inside the tile.
#define B 256

__global__ void smooth(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[B + 1];
  int t = threadIdx.x, i = blockIdx.x * B + t;
  s[t] = i < n ? in[i] : 0.f;
  if (t == 0) s[B] = blockIdx.x * B + B < n ? in[blockIdx.x * B + B] : 0.f;
  __syncthreads();
  if (i < n) out[i] = 0.5f * (s[t] + s[t + 1]);
}

void run_smooth(const float* in, float* out, int n) { smooth<<<(n + B - 1) / B, B>>>(in, out, n); }
