// The same program whose own `channels` is 3 (an RGB image; the command line may ask for another
// count): the lanes are 12 B apart at the program's value, and farther at any larger count: 12
// sectors a request where 4 would do, for every value it is shown to run.
#include <cstdlib>

__global__ void first_channel(const float* __restrict__ in, float* __restrict__ out, int pixels, int channels)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < pixels)
        out[p] = in[p * channels];  // expect: CL101
}

int main(int argc, char** argv)
{
    int pixels = 1 << 20;
    int channels = argc > 1 ? atoi(argv[1]) : 3;
    float *in, *out;
    cudaMalloc(&in, (size_t)pixels * channels * sizeof(float));
    cudaMalloc(&out, pixels * sizeof(float));
    first_channel<<<(pixels + 255) / 256, 256>>>(in, out, pixels, channels);
    cudaDeviceSynchronize();
    return 0;
}
