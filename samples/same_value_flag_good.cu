// expect-clean
// Threads of both branches raise one shared flag, one with a plain store and
// one with `atomicExch`, and nobody reads it before the barrier: both store
// 1, so the flag holds 1 whichever lands last.
// cudalint: launch grid=(64,1,1) block=(256,1,1)
__global__ void mark_split(const float *lo, const float *hi, int *out) {
  __shared__ unsigned int split;
  if (threadIdx.x == 0) split = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lo[i] != hi[i]) {
    atomicExch(&split, 1u);
  } else {
    split = 1;
  }
  __syncthreads();
  out[i] = split;
}
