// An int8 GEMM stage that copies 256-byte rows of A into shared memory with a
// row pitch of 272 bytes: 16 bytes of padding per row, one 16-byte vector, so
// that the vector stores stay aligned and the rows do not all start on one bank.
// The load reads the rows with the same pitch; the skipped bytes are padding
// (its 16 rows fall on 8 banks, two to a bank: a 2-way conflict of its own).
__global__ void stage_rows(const signed char* __restrict__ A, int* __restrict__ C) {
  __shared__ signed char A_sh[16 * 272];
  for (int o = 0; o < 8; ++o) {
    ((int4*)(A_sh + o * 544 + (threadIdx.y >> 3) * 272 + (threadIdx.y & 7) * 32 + threadIdx.x * 16))[0] =
        ((const int4*)(A + o * 8192 + (threadIdx.y >> 3) * 4096 + (threadIdx.y & 7) * 32 + threadIdx.x * 16))[0];
  }
  __syncthreads();
  int acc = 0;
  for (int k = 0; k < 16; ++k) {
    for (int j = 0; j < 16; ++j) acc += A_sh[threadIdx.y * 272 + k * 16 + j];  // expect: CL401
  }
  C[blockIdx.x * 32 + threadIdx.y * 2 + threadIdx.x] = acc;
}

void run_stage(const signed char* A, int* C) { stage_rows<<<1, dim3(2, 16, 1)>>>(A, C); }
