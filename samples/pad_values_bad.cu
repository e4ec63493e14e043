// The transpose of pad_values_good.cu instantiated without padding too
// (`launch_transpose<0>`): that run reads its tile's column 32 words a lane,
// on one bank.
template <int PAD>
__global__ void transpose_pad(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32 + PAD];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  if (ox < n && oy < n) out[oy * n + ox] = tile[threadIdx.x][threadIdx.y];  // expect: CL401
}

template <int PAD = 0>
void launch_transpose(const float* in, float* out, int n) {
  dim3 block(32, 32), grid((n + 31) / 32, (n + 31) / 32);
  transpose_pad<PAD><<<grid, block>>>(in, out, n);
}

typedef void (*transpose_fn)(const float*, float*, int);
transpose_fn chosen_transpose(bool wide) { return wide ? launch_transpose<0> : launch_transpose<1>; }
