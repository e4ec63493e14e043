// expect-clean
// The store inside the guard.
__global__ void mat_vec(float* out, const float* mat, const float* vec, int m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m) {
    float res = 0.f;
    for (int k = 0; k < n; ++k) res += vec[k] * mat[k * m + i];
    out[i] = res;
  }
}

void mat_vec_mul(float* out, const float* mat, const float* vec, int m, int n) {
  const int block_size = 128;
  mat_vec<<<(m + block_size - 1) / block_size, block_size>>>(out, mat, vec, m, n);
}
