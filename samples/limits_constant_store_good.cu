// Every thread resets the head of the queue to the same constant record: `INT_MIN` (<climits>) is
// one value in every thread, so the stores agree and no thread's value is lost (redundant, not a
// conflict).
#include <climits>

struct Token {
    int prev;
    int arc;
};

__global__ void reset_queue(Token *queue, int *ends, int nlanes)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < nlanes)
        ends[i] = 0;
    queue[0] = {INT_MIN, -1};
}

void run(Token *queue, int *ends, int nlanes)
{
    reset_queue<<<(nlanes + 127) / 128, 128>>>(queue, ends, nlanes);
}
// expect-clean
