// The same kernel launched for every algorithm of the table: `run<algo_c>` launches it too, and
// there the `else` branch stores 8 bytes per lane with items 48 bytes apart, twice the sectors a
// warp needs.
#include <stdint.h>

enum algo_id { algo_invalid = 0, algo_a = 1, algo_b = 2, algo_c = 3 };

template <algo_id ALGO>
__global__ void two_lanes_per_item(int items, const uint64_t *in, uint32_t *b)
{
    const int tid = blockDim.x * blockIdx.x + threadIdx.x;
    const int item = tid >> 1;
    const int sub = tid & 1;
    if (item >= items)
        return;
    uint64_t x = in[tid];
    if (ALGO == algo_a || ALGO == algo_b)
        ((uint64_t *)(b + item * 4))[sub] = x;
    else
        ((uint64_t *)(b + item * 12))[sub] = x;      // expect: CL101
}

template <algo_id ALGO>
void run(int items, const uint64_t *in, uint32_t *b)
{
    two_lanes_per_item<ALGO><<<(items * 2 + 127) / 128, 128>>>(items, in, b);
}

typedef void (*run_fn)(int, const uint64_t *, uint32_t *);

void dispatch(algo_id a, int items, const uint64_t *in, uint32_t *b)
{
    static const run_fn table[] = {run<algo_a>, run<algo_b>, run<algo_c>};
    table[a - 1](items, in, b);
}
