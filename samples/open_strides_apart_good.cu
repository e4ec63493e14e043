// Gather rows into a 3-D output whose row, plane and batch strides the caller passes: threads of
// different y and z write rows s1 and s3 elements apart, distinct for any strides of a real layout.
__global__ void gather_rows(const float* src, const int* ids, float* dst, int ncols, long s1, long s3) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int plane = blockIdx.z * blockDim.z + threadIdx.z;
  if (col >= ncols) return;
  float* out = dst + row * s1 + plane * s3;
  out[col] = src[ids[row] * ncols + col];  // expect-clean
}

void gather(const float* src, const int* ids, float* dst, int ncols, int nrows, int nplanes, long s1, long s3) {
  dim3 block(32, 4, 2);
  dim3 grid((ncols + 31) / 32, (nrows + 3) / 4, (nplanes + 1) / 2);
  gather_rows<<<grid, block>>>(src, ids, dst, ncols, s1, s3);
}
