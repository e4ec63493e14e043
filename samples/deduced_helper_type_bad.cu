// The same helper with the volume walked across: lanes step along y, one row pitch apart, so
// each lane's byte is in its own sector (32 sectors a warp request where 1 would do): x and y swapped.
template <typename T>
__device__ inline T *get3DBufferAt(T *ptr, size_t spitch, size_t pitch, size_t x, size_t y, size_t z)
{
    return ((T *)(((char *)ptr) + z * spitch + y * pitch)) + x;
}

__global__ void clamp_volume(unsigned char *vol, int vol_s, int vol_p, unsigned int dimX, unsigned int dimY)
{
    const unsigned int vy = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned int vx = blockIdx.y * blockDim.y + threadIdx.y;
    if (vx >= dimX || vy >= dimY)
        return;
    unsigned char *p = get3DBufferAt(vol, vol_s, vol_p, vx, vy, blockIdx.z);
    const unsigned char v = *p;   // expect: CL102
    *p = v > 128 ? 255 : 0;         // expect: CL102
}

void run(unsigned char *vol, unsigned int dimX, unsigned int dimY, unsigned int dimZ)
{
    dim3 block(32, 4, 1);
    dim3 grid((dimY + 31) / 32, (dimX + 3) / 4, dimZ);
    clamp_volume<<<grid, block>>>(vol, 1024 * dimY, 1024, dimX, dimY);
}
