// The same leader election with the register array filled two threads to
// an element (`idx[t] = threadIdx.x / 2 + ...`): threads 2i and 2i + 1 both
// lead iteration i and store different keys to one shared slot.
#define TILES 4

__global__ void lead(const int* keys, int* out, int n)
{
    __shared__ int chosen;
    if (threadIdx.x == 0)
        chosen = -1;
    int idx[TILES];
    for (int t = 0; t < TILES; t++)
        idx[t] = threadIdx.x / 2 + t * blockDim.x / 2;
    for (int i = 0; i < n; i++)
    {
        int t = i / blockDim.x;
        if (idx[t] == i)
            chosen = keys[i] + threadIdx.x;  // expect: CL302, CL501
        __syncthreads();
        if (threadIdx.x == 0)
            out[i] = chosen;
        __syncthreads();
    }
}

void run(const int* keys, int* out, int n) { lead<<<1, 128>>>(keys, out, n); }
