// expect-clean
// A one-thread kernel, as tests and benchmarks use to time a spin or to set a
// device-side value: it reads no thread or block coordinate, so nothing tells
// its threads apart and it is written for `<<<1, 1>>>`. The launch is made by
// the test harness through a helper this file does not show.
__global__ void spin_for(unsigned long long* __restrict__ out, unsigned long long cycles) {
  const unsigned long long start = clock64();
  unsigned long long t = 0;
  while (t < cycles) t = clock64() - start;
  out[0] = t;
}
