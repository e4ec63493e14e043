// expect-clean
// A `__shared__` union defined in place inside a kernel template: `u.a` and
// `u.halves` are the same bytes. The block reads both halves through
// `u.halves` and clears its slot of `u.a` only after a second barrier.
template <int BX, typename T>
__global__ void fold_halves(const T* in, T* out)
{
    __shared__ union
    {
        T a[BX];
        struct
        {
            T lo[BX / 2];
            T hi[BX / 2];
        } halves;
    } u;
    u.a[threadIdx.x] = in[blockIdx.x * BX + threadIdx.x];
    __syncthreads();
    T v = u.halves.hi[threadIdx.x % (BX / 2)] + u.halves.lo[threadIdx.x % (BX / 2)];
    __syncthreads();
    u.a[threadIdx.x] = 0;
    out[blockIdx.x * BX + threadIdx.x] = v;
}
void run(const float* in, float* out, int blocks) { fold_halves<256, float><<<blocks, 256>>>(in, out); }
