// expect-clean
// The same view, each lane reading the next float of the block's row.
template <typename T>
struct MatrixView {
  T *data_;
  int ncols_;
  __host__ __device__ T *row(int r) { return &data_[r * ncols_]; }
};

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void copy_rows(MatrixView<float> in, float *out) {
  out[blockIdx.x * 256 + threadIdx.x] = in.row(blockIdx.x)[threadIdx.x];
}
