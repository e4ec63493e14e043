// The same 3D heat step written "a[z][y][x] so x comes first": threadIdx.x is
// mapped to z (the plane stride) and threadIdx.z to x (the unit stride), with
// an (8, 8, 4) block. The 32 lanes of a warp (8 z values x 4 y values) hit 32
// different rows of the volume on every access.

// cudalint: param nx=256 ny=256 nz=256
__global__ void heat3d_step(const float* __restrict__ in, float* __restrict__ out,
                            int nx, int ny, int nz, float alpha) {
  int z = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int x = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < 1 || y < 1 || z < 1 || x >= nx - 1 || y >= ny - 1 || z >= nz - 1) return;
  int plane = nx * ny;
  int idx = (z * ny + y) * nx + x;
  float c = in[idx];  // expect: CL102
  float lap = in[idx - 1] + in[idx + 1]  // expect: CL102
            + in[idx - nx] + in[idx + nx]  // expect: CL102
            + in[idx - plane] + in[idx + plane] - 6.0f * c;  // expect: CL102
  out[idx] = c + alpha * lap;  // expect: CL102
}

void run_heat3d(const float* in, float* out, int nx, int ny, int nz, float alpha) {
  dim3 block(8, 8, 4);
  dim3 grid((nz + 7) / 8, (ny + 7) / 8, (nx + 3) / 4);
  heat3d_step<<<grid, block>>>(in, out, nx, ny, nz, alpha);
}
