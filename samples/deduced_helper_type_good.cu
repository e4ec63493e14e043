// A pitched-volume helper template whose element type is deduced from its argument
// (`get3DBufferAt(vol, ...)` with an `unsigned char*` volume: T = unsigned char). Lanes step
// along x, one byte apart: a warp's 32 bytes are one sector, the ideal.
template <typename T>
__device__ inline T *get3DBufferAt(T *ptr, size_t spitch, size_t pitch, size_t x, size_t y, size_t z)
{
    return ((T *)(((char *)ptr) + z * spitch + y * pitch)) + x;
}

__global__ void clamp_volume(unsigned char *vol, int vol_s, int vol_p, unsigned int dimX, unsigned int dimY)
{
    const unsigned int vx = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int vy = blockIdx.y * blockDim.y + threadIdx.y;
    if (vx >= dimX || vy >= dimY)
        return;
    unsigned char *p = get3DBufferAt(vol, vol_s, vol_p, vx, vy, blockIdx.z);
    const unsigned char v = *p;
    *p = v > 128 ? 255 : 0;
}

void run(unsigned char *vol, unsigned int dimX, unsigned int dimY, unsigned int dimZ, int pitch)
{
    dim3 block(32, 4, 1);
    dim3 grid((dimX + 31) / 32, (dimY + 3) / 4, dimZ);
    clamp_volume<<<grid, block>>>(vol, pitch * dimY, pitch, dimX, dimY);
}
// expect-clean
