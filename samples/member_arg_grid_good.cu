// expect-clean
// A grid sized from a member of the host's problem struct (`p.n`) that is also the kernel's `n`:
// the grid rounds n up to whole blocks of 256, and the guard keeps the extra threads of the last
// block from running past n.
struct Problem {
  int n;
  const float* in;
  float* out;
};

__global__ void negate(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = -in[i];
}

void run_negate(Problem& p) {
  int threads = 256;
  int blocks = (p.n + threads - 1) / threads;
  negate<<<blocks, threads>>>(p.in, p.out, p.n);
}
