// The same staging with the count clamped to the two passes of the block (`2 * THREADS`) instead
// of the buffer's CAP slots: a segment longer than CAP stores past the end of the buffer.
#define CAP 640
#define THREADS 512

__global__ void stage_segments(const unsigned *counts, const float *in, float *out)
{
    __shared__ float buf[CAP];
    unsigned n = min(counts[blockIdx.x], (unsigned)(2 * THREADS));
    for (unsigned i = 0; i < 2; ++i) {
        unsigned s = i * THREADS + threadIdx.x;
        if (s >= n) break;
        buf[s] = in[blockIdx.x * CAP + s];  // expect: CL201
    }
    __syncthreads();
    out[blockIdx.x * THREADS + threadIdx.x] = buf[threadIdx.x];
}

void run_stage_segments(const unsigned *counts, const float *in, float *out, int segments)
{
    stage_segments<<<segments, THREADS>>>(counts, in, out);
}
