// A convolution's shared window: the block keeps the last `padding_l` inputs of the previous chunk
// in front of the next. Where the padding is shorter than a block (`padding_l < SB`) one copy moves
// it; the `else` arm, a padding longer than a block, copies in steps and then stores the new chunk
// over a part of the window another thread has not read yet. No launch in these files gives SB or
// padding_l (a build step writes the launches): which arm runs is not the program's to read here,
// so the race of the `else` arm is said as a condition (shown with --show-uncertain), not a finding.
template <int SB, int padding_l>
__device__ void load_window(const float* input, int inputOffset, int iteration, float* window)
{
    const int tid = threadIdx.x;
    if (iteration > 0) {
        if (padding_l < SB) {
            if (tid < padding_l)
                window[tid] = window[tid + SB];
        } else {
            for (int i = 0; i < (padding_l + SB - 1) / SB; i++) {
                int offset = i * SB;
                if (tid + offset < padding_l)
                    window[tid + offset] = window[tid + offset + SB];
            }
        }
    }
    window[tid + padding_l] = input[inputOffset + tid];
}

template <int FS, int SB, int padding_l>
__global__ void conv_forward(const float* input, const float* filter, int length, float* output)
{
    __shared__ float window[SB + FS];
    const int tid = threadIdx.x;
    for (int i = 0; i < (length + SB - 1) / SB; ++i) {
        __syncthreads();
        load_window<SB, padding_l>(input, i * SB, i, window);
        __syncthreads();
        float out = 0.0f;
        for (int k = 0; k < FS; ++k)
            out += filter[k] * window[tid + k];
        output[i * SB + tid] = out;
    }
}
// expect-clean
