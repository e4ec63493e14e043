// expect-clean
// The same two loops over a channel-major layout: lanes read neighbouring
// floats of one channel, in both loops.
// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param channels=64 pre=2
__global__ void window_sums(const float *in, float *out, int channels, int pre) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int step = gridDim.x * blockDim.x;
  float acc = 0.0f;
  int head = 0;
  while (head < pre && head < channels) {
    acc += in[head * step + col];
    ++head;
  }
  while (head < channels) {
    acc += in[head * step + col];
    ++head;
  }
  out[col] = acc;
}
