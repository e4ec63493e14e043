// The kernel of member_arg_grid_good.cu without its guard. The host passes the size as a member of
// its problem struct (`p.n`) and sizes the grid from that member, rounded up to whole blocks of 256:
// wherever n is not a multiple of 256 the last block's extra threads run past n.
struct Problem {
  int n;
  const float* in;
  float* out;
};

__global__ void negate(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = -in[i];  // expect: CL202
}

void run_negate(Problem& p) {
  int threads = 256;
  int blocks = (p.n + threads - 1) / threads;
  negate<<<blocks, threads>>>(p.in, p.out, p.n);
}
