// Another program's `kernel1`: one warp per row, 32 threads a block. Its `load_row` reads a
// whole row per lane, so lanes are a row apart: uncoalesced, reported here, in this file's helper.
__device__ float load_row(const float* in, int i) { return in[i * 1024]; }  // expect: CL101

__global__ void kernel1(float* out, const float* in, int n) {
  __shared__ float buf[32];
  int i = blockIdx.x * 32 + threadIdx.x;
  buf[threadIdx.x] = load_row(in, i);
  __syncwarp();
  out[i] = buf[31 - threadIdx.x];
}

void run(float* out, const float* in) {
  const int n = 1024;
  kernel1<<<n / 32, 32>>>(out, in, n);
}
