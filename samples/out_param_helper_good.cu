// expect-clean
// The same split, the store row-major: lanes write consecutive floats.
template <int N>
__device__ __forceinline__ void split(int &col, int &row, unsigned int i) {
  row = i / N;
  col = i - row * N;
}

// cudalint: launch grid=(1024,1,1) block=(1024,1,1)
__global__ void copy_tile(float *out, const float *in) {
  int col, row;
  split<32>(col, row, threadIdx.x);
  out[blockIdx.x * 1024 + row * 32 + col] = in[blockIdx.x * 1024 + row * 32 + col];
}
