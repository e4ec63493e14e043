// The kernel takes its buffers in a struct, by value: `p.x` and `p.y` point
// to arrays of their own. Reading row `i` of a 32-wide `x` with `i` from
// threadIdx.x puts lanes a row apart.
struct RowParams {
  const float *x;
  float *y;
  int stride;
};

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void first_column(RowParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.y[i] = p.x[i * 32];  // expect: CL101
}
