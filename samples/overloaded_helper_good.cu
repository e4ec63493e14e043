// expect-clean
// The same runs in a tile padded to 33 floats a row: lanes' runs start in
// different banks.
__device__ void scale_run(float *p) {
  p[0] *= 2.0f;
}

__device__ void scale_run(float *p, int n) {
  for (int k = 0; k < n; ++k) {
    p[k] *= 2.0f;
  }
}

// cudalint: launch grid=(64,1,1) block=(32,1,1)
__global__ void scale_rows(float *data) {
  __shared__ float tile[32 * 33];
  for (int k = 0; k < 32; ++k) {
    tile[k * 33 + threadIdx.x] = data[blockIdx.x * 1024 + k * 32 + threadIdx.x];
  }
  __syncthreads();
  scale_run(tile + threadIdx.x * 33, 32);
  __syncthreads();
  for (int k = 0; k < 32; ++k) {
    data[blockIdx.x * 1024 + k * 32 + threadIdx.x] = tile[k * 33 + threadIdx.x];
  }
}
