// The grid of grid_other_rounding_good.cu rounding the input words up by the block's 128 threads,
// one word a thread, with no guard: wherever n is not a multiple of 128 the last block's extra
// threads read past n.
#define THREADS 128

__global__ void __launch_bounds__(THREADS) or_words(const int* __restrict__ in, int n, int* __restrict__ out) {
  int i = blockIdx.x * THREADS + threadIdx.x;
  out[i] = in[i] | 1;  // expect: CL202
}

void run_or_words(const int* in, int n, int* out) {
  or_words<<<(n - 1) / THREADS + 1, THREADS>>>(in, n, out);
}
