// The same particles as a plain struct of four floats: only 4-byte aligned, so nvcc reads x, y
// and z as three 4-byte loads, each with lanes 16 bytes apart: 16 sectors a request where 4 would
// do (the record per lane costs four times the sectors of separate arrays).
struct Vel {
    float x, y, z, pad;
};

__global__ void kinetic(const Vel *vel, float *energy, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        energy[i] = 0.5f * (vel[i].x * vel[i].x + vel[i].y * vel[i].y + vel[i].z * vel[i].z);   // expect: CL101
}

void run(const Vel *vel, float *energy, int n)
{
    kinetic<<<(n + 127) / 128, 128>>>(vel, energy, n);
}
