// A helper converts what it reads with a C-style cast to its template type,
// `(T)in[i]`. cudalint reads the cast whatever the type is, so the load it
// holds is in the model: called with `i = threadIdx.x * 32`, a warp's lanes
// read floats 128 bytes apart, 32 sectors for 128 useful bytes.
template <typename T>
__device__ void convert(T *out, const float *in, int i, int j) {
  out[j] = (T)in[i];  // expect: CL101
}

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void convert_rows(double *out, const float *in) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  convert(out, in, t * 32, t);
}
