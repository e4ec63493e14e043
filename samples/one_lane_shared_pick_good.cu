// expect-clean
// A router: each block finds the thread whose score is the block's maximum,
// records it in a __shared__ variable, and lets that one thread write the
// winner's row. `threadIdx.x == winner` passes one lane of the block: its
// strided store is one lane's request, and the __shared__ score it writes and
// then reads back is its own.
__global__ void route(const float* __restrict__ scores, float* __restrict__ routed, int* __restrict__ picked,
                      int tokens) {
  const int token = blockIdx.x, expert = threadIdx.x;
  const float v = scores[token * blockDim.x + expert];
  __shared__ float best;
  __shared__ int winner;
  __shared__ float winner_score;
  if (expert == 0) best = v;
  __syncthreads();
  if (expert == 0) {
    for (int e = 1; e < blockDim.x; ++e) best = fmaxf(best, scores[token * blockDim.x + e]);
  }
  __syncthreads();
  if (v == best) winner = expert;
  __syncthreads();
  if (expert == winner) {
    winner_score = v;
    picked[token] = expert;
  }
  if (expert == winner) {
    routed[expert * tokens + token] = winner_score;
  }
}

void run_route(const float* scores, float* routed, int* picked, int tokens) {
  route<<<tokens, 64>>>(scores, routed, picked, tokens);
}
