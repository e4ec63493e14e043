// expect-clean
// The store passed to the macro writes element `t` itself: consecutive lanes,
// consecutive floats.
#define IF_IN_RANGE(r, stmt)                 \
  if ((r) < n) {                             \
    stmt;                                    \
  }

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param n=262144
__global__ void copy_rows(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  IF_IN_RANGE(t, out[t] = in[t]);
}
