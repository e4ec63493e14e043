// expect-clean
// tile_loop_race_bad.cu with the barrier at the end of the tile loop: no thread stores the next
// tile before every thread has read this one.
#define T 16

__global__ void mm(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int r = blockIdx.y * T + threadIdx.y, c = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n / T; ++k) {
    As[threadIdx.y][threadIdx.x] = A[r * n + k * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k * T + threadIdx.y) * n + c];
    __syncthreads();
    for (int j = 0; j < T; ++j) acc += As[threadIdx.y][j] * Bs[j][threadIdx.x];
    __syncthreads();
  }
  C[r * n + c] = acc;
}

void run_mm(const float* A, const float* B, float* C, int n) { mm<<<dim3(n / T, n / T), dim3(T, T)>>>(A, B, C, n); }
