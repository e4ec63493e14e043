// A counter stepped by one while below its bounds leaves the first loop at
// max(0, min(pre, channels)); the second loop starts from there. cudalint
// follows it into the second loop, whose loads put a warp's lanes `channels`
// floats apart: each thread walks its own row.
// cudalint: launch grid=(1024,1,1) block=(256,1,1)
// cudalint: param channels=64 pre=2
__global__ void window_sums(const float *in, float *out, int channels, int pre) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  const float *in_row = in + row * channels;
  float acc = 0.0f;
  int head = 0;
  while (head < pre && head < channels) {
    acc += in_row[head];  // expect: CL101
    ++head;
  }
  while (head < channels) {
    acc += in_row[head];  // expect: CL101
    ++head;
  }
  out[row] = acc;
}
