// Every thread of a block resets the head of the queue, but each writes its own index in the
// second field: 128 different records stored to one element, and which one survives is unspecified.
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
    queue[0] = {INT_MIN, i};     // expect: CL302
}

void run(Token *queue, int *ends, int nlanes)
{
    reset_queue<<<(nlanes + 127) / 128, 128>>>(queue, ends, nlanes);
}
