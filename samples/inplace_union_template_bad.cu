// The same union with the second barrier left out: thread 128 clears
// `u.a[128]` while thread 0 may still be reading those bytes as
// `u.halves.hi[0]` (a union's members share their bytes).
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
    T v = u.halves.hi[threadIdx.x % (BX / 2)] + u.halves.lo[threadIdx.x % (BX / 2)];  // expect: CL501
    u.a[threadIdx.x] = 0;
    out[blockIdx.x * BX + threadIdx.x] = v;
}
void run(const float* in, float* out, int blocks) { fold_halves<256, float><<<blocks, 256>>>(in, out); }
