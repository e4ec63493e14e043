// The same in-place struct read back with no barrier: thread 0 reads
// `s.vals[255]` before thread 255 may have stored it.
template <int BX, typename T>
__global__ void reverse_block(const T* in, T* out)
{
    __shared__ struct
    {
        T vals[BX];
        int count;
    } s;
    s.vals[threadIdx.x] = in[blockIdx.x * BX + threadIdx.x];
    out[blockIdx.x * BX + threadIdx.x] = s.vals[BX - 1 - threadIdx.x];  // expect: CL501
}

void run(const float* in, float* out, int blocks) { reverse_block<256, float><<<blocks, 256>>>(in, out); }
