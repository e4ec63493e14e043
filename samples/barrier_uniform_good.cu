// expect-clean
// Barriers under conditions that are the same for every thread of a block: a
// test on blockIdx (whole blocks skip the tile) and a loop over a parameter.
#define THREADS 256

__global__ void tile_sums(const float* __restrict__ in, float* __restrict__ out, int tiles, int active) {
  __shared__ float buf[THREADS];
  if (blockIdx.x >= active) return;
  float acc = 0.0f;
  for (int t = 0; t < tiles; ++t) {
    buf[threadIdx.x] = in[(blockIdx.x * tiles + t) * THREADS + threadIdx.x];
    __syncthreads();
    acc += buf[THREADS - 1 - threadIdx.x];
    __syncthreads();
  }
  out[blockIdx.x * THREADS + threadIdx.x] = acc;
}

// cudalint: param tiles=8 active=16
void run_tile_sums(const float* in, float* out, int tiles, int active) {
  tile_sums<<<32, THREADS>>>(in, out, tiles, active);
}
