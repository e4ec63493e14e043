// expect-clean
// The macro stores element `t` itself: consecutive lanes, consecutive floats.
#define COPY_ONE(r)                          \
  if ((r) < n) {                             \
    out[(r)] = in[(r)];                      \
  }

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param n=262144
__global__ void copy_rows(float *out, const float *in, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  COPY_ONE(t);
}
