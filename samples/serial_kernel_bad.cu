// The spin of serial_kernel_good.cu launched with a block of 256 threads:
// every thread stores its own count to the one element.
__global__ void spin_for(unsigned long long* __restrict__ out, unsigned long long cycles) {
  const unsigned long long start = clock64();
  unsigned long long t = 0;
  while (t < cycles) t = clock64() - start;
  out[0] = t;  // expect: CL302
}

void run_spin_for(unsigned long long* out) { spin_for<<<1, 256>>>(out, 1000000ull); }
