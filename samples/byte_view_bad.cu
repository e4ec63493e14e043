// The same packing without the barrier: threads read words whose bytes other threads are
// still writing.
__global__ void pack(const unsigned char* in, unsigned* out) {
  __shared__ unsigned words[64];
  unsigned char* bytes = (unsigned char*)words;
  bytes[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = words[threadIdx.x];  // expect: CL501
}

void run(const unsigned char* in, unsigned* out) { pack<<<4096, 256>>>(in, out); }
