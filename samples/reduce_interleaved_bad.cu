// Block sum with interleaved addressing: in step s the active threads read
// sdata[2*s*tid] and sdata[2*s*tid + s]. Lanes are 2*s words apart, so the
// conflict grows with s: 2-way, 4-way, 8-way, 16-way (512 threads).
#define THREADS 512

__global__ void reduce_interleaved(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0.0f;
  if (i < n) v = in[i];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = 1; s < blockDim.x; s *= 2) {
    unsigned index = 2 * s * tid;
    if (index < blockDim.x)
      sdata[index] += sdata[index + s];  // expect: CL401
    __syncthreads();
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

void run_reduce_interleaved(const float* in, float* out, int n) {
  reduce_interleaved<<<(n + THREADS - 1) / THREADS, THREADS>>>(in, out, n);
}
