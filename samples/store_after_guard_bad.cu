// The row's dot product is guarded, the store of its result is not: the threads past the last
// row still write out[i].
__global__ void mat_vec(float* out, const float* mat, const float* vec, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float res = 0.f;
  if (i < m) {
    for (int k = 0; k < n; ++k) res += mat[i * n + k] * vec[k];  // expect: CL101
  }
  out[i] = res;  // expect: CL202
}

void mat_vec_mul(float* out, const float* mat, const float* vec, int m, int n) {
  const int block_size = 128;
  mat_vec<<<(m + block_size - 1) / block_size, block_size>>>(out, mat, vec, m, n);
}
