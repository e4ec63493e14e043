// The same gather with the plane stride written as the row stride: thread (y=1, z=0) and thread
// (y=0, z=1) write the same row, whatever stride the caller passes.
__global__ void gather_rows(const float* src, const int* ids, float* dst, int ncols, long s1, long s3) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  const int plane = blockIdx.z * blockDim.z + threadIdx.z;
  if (col >= ncols) return;
  float* out = dst + row * s1 + plane * s1;
  out[col] = src[ids[row] * ncols + col];  // expect: CL302, CL301
}

void gather(const float* src, const int* ids, float* dst, int ncols, int nrows, int nplanes, long s1, long s3) {
  dim3 block(32, 4, 2);
  dim3 grid((ncols + 31) / 32, (nrows + 3) / 4, (nplanes + 1) / 2);
  gather_rows<<<grid, block>>>(src, ids, dst, ncols, s1, s3);
}
