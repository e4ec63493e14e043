// A tile-blending kernel whose warp writes rows of TILE pixels: lane % TILE is the column, lane / TILE
// the row. Its `static_assert` allows only tiles of at least 8 floats that divide a warp, so every
// row a warp writes is at least one whole 32-byte sector: the stores are as coalesced as 32 floats
// can be, for every instance the program may compile.
template <int TILE>
__global__ void blend_tiles(const float* __restrict__ src, float* __restrict__ out, int width, int tiles_x)
{
    static_assert(TILE >= 8 && 32 % TILE == 0, "a warp writes whole rows of at least 8 floats");
    const int lane = threadIdx.x % 32;
    const int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
    const int x = (tile % tiles_x) * TILE + lane % TILE;
    const int y = (tile / tiles_x) * TILE + lane / TILE;
    out[y * width + x] = 0.5f * (out[y * width + x] + src[tile * 32 + lane]);
}
// expect-clean
