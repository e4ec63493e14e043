// A tile-blending kernel whose warp writes rows of TILE pixels: lane % TILE is the column, lane / TILE
// the row. Its `static_assert` allows only tiles of 2 or 4 floats, so a warp's 32 lanes write 8 or
// 16 rows of 8 or 16 bytes, one or two pieces of a sector each, for every instance the program may
// compile: 8 or 16 sectors for 4 sectors of data.
template <int TILE>
__global__ void blend_tiles(const float* __restrict__ src, float* __restrict__ out, int width, int tiles_x)
{
    static_assert(TILE == 2 || TILE == 4, "small tiles");
    const int lane = threadIdx.x % 32;
    const int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int x = (tile % tiles_x) * TILE + lane % TILE;
    const int y = (tile / tiles_x) * TILE + lane / TILE;
    out[y * width + x] = 0.5f * (out[y * width + x] + src[tile * 32 + lane]);  // expect: CL101
}
