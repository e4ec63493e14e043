// A kernel launched through cudaLaunchKernel, launch shape given by annotation:
// 3907 blocks of 256 = 1000192 threads for n = 1000000, and no tail guard.

// cudalint: param n=1000000
// cudalint: launch grid=(3907,1,1) block=(256,1,1)
__global__ void clamp01(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] = fminf(fmaxf(data[i], 0.0f), 1.0f);  // expect: CL202
}

cudaError_t run_clamp01(float* data, int n, cudaStream_t stream) {
  void* args[] = {&data, &n};
  return cudaLaunchKernel((const void*)clamp01, dim3((n + 255) / 256), dim3(256), args, 0, stream);
}
