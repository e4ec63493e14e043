// The int8 GEMM stage of padded_byte_rows_good.cu with rows 384 bytes apart:
// 128 of every 384 bytes of the tile are never written or read, far more
// than the one 16-byte vector that pads a row against bank conflicts.
__global__ void stage_rows(const signed char* __restrict__ A, int* __restrict__ C) {
  __shared__ signed char A_sh[16 * 384];
  for (int o = 0; o < 8; ++o) {
    ((int4*)(A_sh + o * 768 + (threadIdx.y >> 3) * 384 + (threadIdx.y & 7) * 32 + threadIdx.x * 16))[0] =
        ((const int4*)(A + o * 8192 + (threadIdx.y >> 3) * 4096 + (threadIdx.y & 7) * 32 + threadIdx.x * 16))[0];
  }
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 16; ++k) {
    for (int j = 0; j < 16; ++j) acc += A_sh[threadIdx.y * 384 + k * 16 + j];  // expect: CL301, CL401
  }
  C[blockIdx.x * 32 + threadIdx.y * 2 + threadIdx.x] = acc;
}

void run_stage(const signed char* A, int* C) { stage_rows<<<1, dim3(2, 16, 1)>>>(A, C); }
