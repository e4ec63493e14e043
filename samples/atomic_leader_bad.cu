// The compaction of atomic_leader_good.cu without the barrier after the leader
// rewrites `s_total`: the other threads read it while the leader may still be
// writing it.
__global__ void append(const int* __restrict__ flags, int* __restrict__ counts, int* __restrict__ pos, int n) {
  __shared__ int s_total, s_arrived;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x == 0) {
    s_total = 0;
    s_arrived = 0;
  }
  __syncthreads();
  int slot = -1;
  if (i < n && flags[i]) slot = atomicAdd(&s_total, 1);
  __syncthreads();
  if (atomicAdd(&s_arrived, 1) == 0) {
    counts[blockIdx.x] = s_total;
    s_total = blockIdx.x * blockDim.x;
  }
  if (i < n) pos[i] = s_total + slot;  // expect: CL501
}

void run_append(const int* flags, int* counts, int* pos, int n) {
  append<<<(n + 255) / 256, 256>>>(flags, counts, pos, n);
}
