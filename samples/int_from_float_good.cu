// Two thirds of a row's slots are kept in registers and the rest in shared memory: `n_reg` is an
// int made from a double, (2. / 3.) * 14 = 9.33 truncated to 9, so the register array and the
// loops over it agree, and the shared part is the other 5 slots of each thread.
template <int SLOTS, int CTA>
__global__ void split_slots(int *out)
{
    const int n_reg = (2. / 3.) * SLOTS;
    const int n_sh = SLOTS - n_reg;
    __shared__ int sh[n_sh * CTA + 1];
    int reg[n_reg];
    int off = threadIdx.x * n_sh;
#pragma unroll
    for (int i = 0; i < n_reg; i++)
        reg[i] = i;
    for (int i = 0; i < n_sh; i++)
        sh[off + i] = i;
    __syncthreads();
    int s = 0;
#pragma unroll
    for (int i = 0; i < n_reg; i++)
        s += reg[i];
    out[blockIdx.x * CTA + threadIdx.x] = s + sh[off + 1];
}

void run(int *out)
{
    split_slots<14, 128><<<4, 128>>>(out);
}
// expect-clean
