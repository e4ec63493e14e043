// A macro used as a statement that expands to an `if` with its own block:
// cudalint walks the expansion, and the store passed to it is in the model.
// `IF_IN_RANGE(t, ...)` stores row `t` of a 32-wide tile: lanes 128 bytes apart.
#define IF_IN_RANGE(r, stmt)                 \
  if ((r) < n) {                             \
    stmt;                                    \
  }

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param n=262144
__global__ void copy_rows(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  IF_IN_RANGE(t, out[t * 32] = in[t]);  // expect: CL101
}
