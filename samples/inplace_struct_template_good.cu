// expect-clean
// A `__shared__` struct defined in place inside a kernel template, its
// array member sized by the template's own parameter: every thread fills
// its slot of `s.vals`, and reads another's only after the barrier.
template <int BX, typename T>
__global__ void reverse_block(const T* in, T* out)
{
    __shared__ struct
    {
        T vals[BX];
        int count;
    } s;
    s.vals[threadIdx.x] = in[blockIdx.x * BX + threadIdx.x];
    __syncthreads();
    out[blockIdx.x * BX + threadIdx.x] = s.vals[BX - 1 - threadIdx.x];
}

void run(const float* in, float* out, int blocks) { reverse_block<256, float><<<blocks, 256>>>(in, out); }
