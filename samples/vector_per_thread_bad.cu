// The same vectors taken from rows of a matrix: lane k moves 16 bytes of row k, a whole row pitch
// (8 * OC elements) from its neighbour, whatever OC is.
typedef uint4 vector_t;
template <int ILP>
__global__ void rows_vec(float* out, const float* in, int OC, float s) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  vector_t v = *(const vector_t*)&in[row * 8 * OC];  // expect: CL101
  float* e = (float*)&v;
  for (int j = 0; j < ILP; j++) e[j] *= s;
  *(vector_t*)&out[row * 8 * OC] = v;  // expect: CL101
}
