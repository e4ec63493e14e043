// Two helpers share a name and differ in their parameters; a call runs the
// one its arguments count. `scale_run(p, n)` walks a run of `n` floats from
// `p`; each lane's run starts 32 floats after its neighbour's, so at every
// step all 32 lanes of a warp hit one bank.
__device__ void scale_run(float *p) {
  p[0] *= 2.0f;
}

__device__ void scale_run(float *p, int n) {
  for (int k = 0; k < n; ++k) {
    p[k] *= 2.0f;  // expect: CL401
  }
}

// cudalint: launch grid=(64,1,1) block=(32,1,1)
__global__ void scale_rows(float *data) {
  __shared__ float tile[32 * 32];
  for (int k = 0; k < 32; ++k) {
    tile[k * 32 + threadIdx.x] = data[blockIdx.x * 1024 + k * 32 + threadIdx.x];
  }
  __syncthreads();
  scale_run(tile + threadIdx.x * 32, 32);
  __syncthreads();
  for (int k = 0; k < 32; ++k) {
    data[blockIdx.x * 1024 + k * 32 + threadIdx.x] = tile[k * 32 + threadIdx.x];
  }
}
