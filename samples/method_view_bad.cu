// A view passed by value hands out rows through a method that is one
// `return`: `view.row(r)` is `&data_[r * ncols_]` of the view it is called on.
// Indexing a row with `threadIdx.x * 2` reads every other float.
template <typename T>
struct MatrixView {
  T *data_;
  int ncols_;
  __host__ __device__ T *row(int r) { return &data_[r * ncols_]; }
};

// cudalint: launch grid=(1024,1,1) block=(256,1,1)
__global__ void even_columns(MatrixView<float> in, float *out) {
  out[blockIdx.x * 256 + threadIdx.x] = in.row(blockIdx.x)[threadIdx.x * 2];  // expect: CL101
}
