// Threads of the two branches store different values to one shared flag with
// no barrier between: which value the flag holds after the barrier depends on
// which store lands last.
// cudalint: launch grid=(64,1,1) block=(256,1,1)
__global__ void mark_split(const float *lo, const float *hi, int *out) {
  __shared__ unsigned int split;
  if (threadIdx.x == 0) split = 0;
  __syncthreads();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (lo[i] != hi[i]) {
    atomicExch(&split, 1u);
  } else {
    split = 2;  // expect: CL501
  }
  __syncthreads();
  out[i] = split;
}
