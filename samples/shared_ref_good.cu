// expect-clean
// A `__shared__` total passed by reference to a helper that adds to it atomically: passing it
// reads nothing, and atomics do not race with each other.
__device__ void accumulate(float& total, float v) { atomicAdd(&total, v); }

__global__ void block_total(const float* in, float* out) {
  __shared__ float total;
  if (threadIdx.x == 0) total = 0.0f;
  __syncthreads();
  accumulate(total, in[blockIdx.x * blockDim.x + threadIdx.x]);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

void run(const float* in, float* out) { block_total<<<1024, 256>>>(in, out); }
