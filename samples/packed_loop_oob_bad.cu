// Eight values a thread, packed four to a word: the packing loop runs over all VPT values where it
// should run over the VPT / 4 words, and reads v[it * 4 + 3] up to v[31] of an 8-element array. The
// early return of the threads past the rows decides which threads run, not how far `it` goes.
#define VPT 8

__global__ void pack(const float* __restrict__ in, unsigned* __restrict__ out, int rows) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  float v[VPT];
  for (int it = 0; it < VPT; it++) v[it] = in[it * rows + row];
  unsigned w[VPT / 4];
  for (int it = 0; it < VPT; it++)
    w[it] = (unsigned)v[it * 4] | (unsigned)v[it * 4 + 3] << 24;  // expect: CL201
  for (int k = 0; k < VPT / 4; k++) out[k * rows + row] = w[k];
}

void run_pack(const float* in, unsigned* out, int rows) { pack<<<(rows + 127) / 128, 128>>>(in, out, rows); }
