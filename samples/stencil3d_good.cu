// expect-clean
// One explicit step of the 3D heat equation (7-point Laplacian) on an
// nx * ny * nz volume stored x-fastest. Block (32, 4, 2): threadIdx.x maps to
// x, the unit-stride dimension, so each warp reads one 128-byte row segment
// per neighbour (the +-1 neighbours straddle one extra sector, well under 2x).

// cudalint: param nx=256 ny=256 nz=256
__global__ void heat3d_step(const float* __restrict__ in, float* __restrict__ out,
                            int nx, int ny, int nz, float alpha) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  int plane = nx * ny;
  int idx = (z * ny + y) * nx + x;
  float c = in[idx];
  float lap = in[idx - 1] + in[idx + 1]
            + in[idx - nx] + in[idx + nx]
            + in[idx - plane] + in[idx + plane] - 6.0f * c;
  out[idx] = c + alpha * lap;
}

void run_heat3d(const float* in, float* out, int nx, int ny, int nz, float alpha) {
  dim3 block(32, 4, 2);
  dim3 grid((nx + 31) / 32, (ny + 3) / 4, (nz + 1) / 2);
  heat3d_step<<<grid, block>>>(in, out, nx, ny, nz, alpha);
}
