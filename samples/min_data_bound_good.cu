// expect-clean
// Each block stages at most CAP values of a segment whose length is read from memory: the
// count is clamped with `min(count, CAP)`, and every thread stops at the clamped length. Whatever
// the count holds, no thread stores past the CAP slots of the staging buffer.
#define CAP 640
#define THREADS 512

__global__ void stage_segments(const unsigned *counts, const float *in, float *out)
{
    __shared__ float buf[CAP];
    unsigned n = min(counts[blockIdx.x], (unsigned)CAP);
    for (unsigned i = 0; i < 2; ++i) {
        unsigned s = i * THREADS + threadIdx.x;
        if (s >= n) break;
        buf[s] = in[blockIdx.x * CAP + s];
    }
    __syncthreads();
    out[blockIdx.x * THREADS + threadIdx.x] = buf[threadIdx.x];
}

void run_stage_segments(const unsigned *counts, const float *in, float *out, int segments)
{
    stage_segments<<<segments, THREADS>>>(counts, in, out);
}
