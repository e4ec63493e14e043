// A tiled matrix product with no barrier at the end of the tile loop: a thread that finishes its
// dot product stores the next tile over values other threads are still reading. The tile count
// n / 16 comes from a size the program does not give; at any n of two tiles or more the loop
// repeats, which is where the race is.
#define T 16

__global__ void mm(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int r = blockIdx.y * T + threadIdx.y, c = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int k = 0; k < n / T; ++k) {
    As[threadIdx.y][threadIdx.x] = A[r * n + k * T + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k * T + threadIdx.y) * n + c];
    __syncthreads();
    for (int j = 0; j < T; ++j) acc += As[threadIdx.y][j] * Bs[j][threadIdx.x];  // expect: CL501
  }
  C[r * n + c] = acc;
}

void run_mm(const float* A, const float* B, float* C, int n) { mm<<<dim3(n / T, n / T), dim3(T, T)>>>(A, B, C, n); }
