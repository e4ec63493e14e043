// expect-clean
// A kernel template whose `else` branch stores a 48-byte record per item, strided. Its launcher,
// a host template instantiated through a table of function pointers, launches it only under
// `if (ALGO == algo_a || ALGO == algo_b)`: every instantiation that launches takes the first,
// contiguous branch.
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
        ((uint64_t *)(b + item * 12))[sub] = x;
}

template <algo_id ALGO>
void run(int items, const uint64_t *in, uint32_t *b)
{
    if (ALGO == algo_a || ALGO == algo_b)
        two_lanes_per_item<ALGO><<<(items * 2 + 127) / 128, 128>>>(items, in, b);
}

typedef void (*run_fn)(int, const uint64_t *, uint32_t *);

void dispatch(algo_id a, int items, const uint64_t *in, uint32_t *b)
{
    static const run_fn table[] = {run<algo_a>, run<algo_b>, run<algo_c>};
    table[a - 1](items, in, b);
}
