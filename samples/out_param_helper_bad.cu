// `split(col, row, i)` returns two values through reference parameters; what
// it leaves in `col` and `row` is what the kernel indexes with afterwards.
// The transposed store puts a warp's lanes 32 floats apart.
template <int N>
__device__ __forceinline__ void split(int &col, int &row, unsigned int i) {
  row = i / N;
  col = i - row * N;
}

// cudalint: launch grid=(1024,1,1) block=(1024,1,1)
__global__ void transpose_tile(float *out, const float *in) {
  int col, row;
  split<32>(col, row, threadIdx.x);
  out[blockIdx.x * 1024 + col * 32 + row] = in[blockIdx.x * 1024 + row * 32 + col];  // expect: CL101
}
