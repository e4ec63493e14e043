// Each thread writes its four counts into shared memory with one inline-PTX 16-byte store at the
// address `__cvta_generic_to_shared` gives, and thread 0 then fixes up the slot `total` names. That
// slot is another thread's (thread total / 4 stored it): the barrier between the vector store and
// thread 0's read makes the read see it.
__device__ __forceinline__ void store_shared16(void* dst, const int* src)
{
    unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(dst));
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n"
                 :
                 : "r"(addr), "r"(src[0]), "r"(src[1]), "r"(src[2]), "r"(src[3]));
}

__global__ void place_tokens(const int* counts, int* out, int total)
{
    __shared__ int slots[512 * 4 + 4];
    const int t = threadIdx.x;
    for (int i = t; i <= total; i += 512)
        slots[i] = 0;
    __syncthreads();
    int mine[4];
    for (int i = 0; i < 4; i++)
        mine[i] = counts[(blockIdx.x * 4 + i) * 512 + t];
    store_shared16(slots + t * 4, mine);
    __syncthreads();
    if (t == 0)
        slots[total] = total - slots[total];
    __syncthreads();
    for (int i = 0; i < 4; i++)
        out[(blockIdx.x * 4 + i) * 512 + t] = slots[t * 4 + i];
}

void place(const int* counts, int* out, int blocks, int total)
{
    place_tokens<<<blocks, 512>>>(counts, out, total);
}
// expect-clean
