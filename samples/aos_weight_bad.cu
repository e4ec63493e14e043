// Each particle is a 32-byte struct; a warp reading one field, `p[i].weight`,
// touches 32 structs 32 bytes apart: 32 sectors for 128 useful bytes (8x the
// ideal 4). An array of structs read one field at a time wastes the bandwidth
// the other fields' bytes take in every sector.
struct Particle {
  float x, y, z;
  float vx, vy, vz;
  float weight;
  int id;
};

// cudalint: param n=1048576
__global__ void total_weight(const Particle* __restrict__ p, float* __restrict__ w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    w[i] = 2.0f * p[i].weight;  // expect: CL101
  }
}

void run_total_weight(const Particle* p, float* w, int n) {
  total_weight<<<(n + 255) / 256, 256>>>(p, w, n);
}
