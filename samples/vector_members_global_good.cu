// Particles kept as float4 (x, y, z and a padding word): each thread reads x, y and z of its own
// particle. The element is 16-byte aligned, so nvcc reads the three members as one 16-byte load
// (ld.global.v4): a warp's 512 bytes in 16 sectors, the ideal for 16 bytes a lane.
__global__ void kinetic(const float4 *vel, float *energy, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        energy[i] = 0.5f * (vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);
}

void run(const float4 *vel, float *energy, int n)
{
    kinetic<<<(n + 127) / 128, 128>>>(vel, energy, n);
}
// expect-clean
