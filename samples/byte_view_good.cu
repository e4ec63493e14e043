// expect-clean
// A shared tile of 32-bit words filled byte by byte through an `unsigned char*` view: each
// thread writes its own byte, four threads share a word but never a byte, and the words are read
// after a barrier.
__global__ void pack(const unsigned char* in, unsigned* out) {
  __shared__ unsigned words[64];
  unsigned char* bytes = (unsigned char*)words;
  bytes[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x < 64) out[blockIdx.x * 64 + threadIdx.x] = words[threadIdx.x];
}

void run(const unsigned char* in, unsigned* out) { pack<<<4096, 256>>>(in, out); }
