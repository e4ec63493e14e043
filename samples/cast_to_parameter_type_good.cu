// expect-clean
// The same helper called with consecutive indexes: each lane reads the float
// after its neighbour's, 4 sectors a warp.
template <typename T>
__device__ void convert(T *out, const float *in, int i, int j) {
  out[j] = (T)in[i];
}

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void convert_rows(double *out, const float *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  convert(out, in, t, t);
}
