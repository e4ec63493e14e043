// The same rounded-up grid with only the row guarded: the threads past
// column 1030 of each row store into the first columns of the next row
// (rows are 1031 apart, a block row spans 1056), so two threads write one
// element. Guard the column too: `if (row < M && col < N)`.
constexpr int M = 519;
constexpr int N = 1031;
constexpr int THREADS = 32;
constexpr int N_PADDED = N + THREADS - N % THREADS;
constexpr int M_PADDED = M + THREADS - M % THREADS;

__global__ void scale(const int* a, int* c)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M)
        c[row * N + col] = 2 * a[row * N + col];  // expect: CL301
}

void run(const int* a, int* c)
{
    dim3 threads(THREADS, THREADS);
    dim3 blocks(N_PADDED / THREADS, M_PADDED / THREADS);
    scale<<<blocks, threads>>>(a, c);
}
