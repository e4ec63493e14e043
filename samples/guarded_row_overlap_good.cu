// expect-clean
// A matrix of 1031 columns is launched on a grid rounded up to whole
// 32-wide blocks (33 blocks: 1056 columns). The rows are 1031 apart, so the
// threads past column 1030 would land on the next row, but the guard
// `col < N` keeps every thread that stores inside its own row.
constexpr int M = 519;
constexpr int N = 1031;
constexpr int THREADS = 32;
constexpr int N_PADDED = N + THREADS - N % THREADS;
constexpr int M_PADDED = M + THREADS - M % THREADS;

__global__ void scale(const int* a, int* c)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N)
        c[row * N + col] = 2 * a[row * N + col];
}

void run(const int* a, int* c)
{
    dim3 threads(THREADS, THREADS);
    dim3 blocks(N_PADDED / THREADS, M_PADDED / THREADS);
    scale<<<blocks, threads>>>(a, c);
}
