// A macro used as a statement that expands to an `if` with its own block:
// cudalint walks the expansion, and the store inside it is in the model.
// `COPY_ROW(t)` stores row `t` of a 32-wide tile: lanes 128 bytes apart.
#define COPY_ROW(r)                          \
  if ((r) < n) {                             \
    out[(r) * 32] = in[(r)];                 \
  }

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param n=262144
__global__ void copy_rows(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  COPY_ROW(t);  // expect: CL101
}
