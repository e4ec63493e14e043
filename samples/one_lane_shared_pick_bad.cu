// The router of one_lane_shared_pick_good.cu where every thread writes its own
// column of `routed` with the winner's score: the lanes of a warp store
// `tokens` floats apart, and the score the winning thread writes is read by
// all the others with no barrier between.
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
  routed[expert * tokens + token] = winner_score;  // expect: CL101, CL501
}

void run_route(const float* scores, float* routed, int* picked, int tokens) {
  route<<<tokens, 64>>>(scores, routed, picked, tokens);
}
