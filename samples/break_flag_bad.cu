// The same loop without the barrier between staging a chunk in `buf` and reading it reversed:
// thread t reads the element thread 255 - t is still writing.
#define THREADS 256

__global__ void drain(float* data, const int* counts) {
  __shared__ int done;
  __shared__ float buf[THREADS];
  int chunk = 0;
  while (true) {
    if (threadIdx.x == 0) done = chunk >= counts[blockIdx.x];
    __syncthreads();
    if (done) break;
    buf[threadIdx.x] = data[(blockIdx.x * 64 + chunk) * THREADS + threadIdx.x];
    data[(blockIdx.x * 64 + chunk) * THREADS + threadIdx.x] = buf[THREADS - 1 - threadIdx.x];  // expect: CL501
    __syncthreads();
    chunk++;
  }
}

void run(float* d, const int* counts) { drain<<<16, THREADS>>>(d, counts); }
