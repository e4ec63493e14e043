// expect-clean
// The same struct of buffers, read along a row: lanes read neighbouring floats.
struct RowParams {
  const float *x;
  float *y;
  int stride;
};

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void first_row(RowParams p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  p.y[i] = p.x[i];
}
