// Each thread averages its element with its right neighbour, read from a shared tile of one block's
// elements: thread 255 reads s[256], one past the tile, in every block the tail guard lets run
// whole (the guard `i < n` only keeps the last block's extra threads out; it bounds nothing inside
// a block).
#define B 256

__global__ void smooth(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float s[B];
  int t = threadIdx.x, i = blockIdx.x * B + t;
  s[t] = i < n ? in[i] : 0.f;
  __syncthreads();
  if (i < n) out[i] = 0.5f * (s[t] + s[t + 1]);  // expect: CL201
}

void run_smooth(const float* in, float* out, int n) { smooth<<<(n + B - 1) / B, B>>>(in, out, n); }
