// Each thread of the grid owns ILP consecutive elements and moves them as one 16-byte vector: with
// ILP = 16 / sizeof(scalar_t), as the program instantiates it, neighbouring lanes' vectors touch.
typedef uint4 vector_t;
template <int ILP, typename scalar_t>
__global__ void scale_vec(scalar_t* out, const scalar_t* in, const int64_t rows, const int64_t cols, float s) {
  vector_t v;
  for (int64_t i = (blockIdx.x * blockDim.x + threadIdx.x) * ILP; i < rows * cols;
       i += gridDim.x * blockDim.x * ILP) {
    v = *(vector_t*)&in[i];  // expect-clean
    scalar_t* e = (scalar_t*)&v;
    for (int j = 0; j < ILP; j++) e[j] = (scalar_t)(s * (float)e[j]);
    *(vector_t*)&out[i] = v;  // expect-clean
  }
}
