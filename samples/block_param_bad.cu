// llm.c's first matmul: the launcher takes the block edge as a parameter
// (`dim3 block(sqrt_block_size, sqrt_block_size)`), so the block size is not in
// the file. cudalint assumes a square block of 256 threads and says so. The
// findings on `inp` and `out` hold for any block edge: `bt` comes from
// threadIdx.x, so adjacent lanes read C floats apart and write OC floats apart.
#define CEIL_DIV(a, b) (((a) + (b) - 1) / (b))

// cudalint: param BT=4096 C=768 OC=3072
__global__ void matmul_naive(float *out, const float *inp, const float *weight, int BT, int C, int OC) {
  int bt = blockIdx.x * blockDim.x + threadIdx.x;
  int oc = blockIdx.y * blockDim.y + threadIdx.y;
  if (bt < BT && oc < OC) {
    float val = 0.0f;
    for (int i = 0; i < C; i++)
      val += inp[bt * C + i] * weight[oc * C + i];  // expect: CL101
    out[bt * OC + oc] = val;  // expect: CL102
  }
}

void matmul_forward(float *out, const float *inp, const float *weight, int BT, int C, int OC,
                    int sqrt_block_size) {
  dim3 grid(CEIL_DIV(BT, sqrt_block_size), CEIL_DIV(OC, sqrt_block_size));
  dim3 block(sqrt_block_size, sqrt_block_size);
  matmul_naive<<<grid, block>>>(out, inp, weight, BT, C, OC);
}
