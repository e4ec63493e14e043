// expect-clean
// A block works through chunks until thread 0 says it is done. `done` is read by every thread
// after a barrier, so the block leaves the loop together: the barriers after `if (done) break;`
// are reached by every thread that is still in the loop, and they separate one chunk from the next.
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
    __syncthreads();
    data[(blockIdx.x * 64 + chunk) * THREADS + threadIdx.x] = buf[THREADS - 1 - threadIdx.x];
    __syncthreads();
    chunk++;
  }
}

void run(float* d, const int* counts) { drain<<<16, THREADS>>>(d, counts); }
