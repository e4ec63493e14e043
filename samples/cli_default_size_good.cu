// expect-clean
// Each thread reads the first channel of its pixel, `in[p * channels]`. The program's own
// `channels` is 1 (a grey image; the command line may ask for more): at 1 the lanes read
// consecutive floats, 4 sectors a request, the ideal. Only a channel count the program is not
// shown to run makes the read strided: that is an info (--show-uncertain), not a warning.
#include <cstdlib>

__global__ void first_channel(const float* __restrict__ in, float* __restrict__ out, int pixels, int channels)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < pixels)
        out[p] = in[p * channels];
}

int main(int argc, char** argv)
{
    int pixels = 1 << 20;
    int channels = argc > 1 ? atoi(argv[1]) : 1;
    float *in, *out;
    cudaMalloc(&in, (size_t)pixels * channels * sizeof(float));
    cudaMalloc(&out, pixels * sizeof(float));
    first_channel<<<(pixels + 255) / 256, 256>>>(in, out, pixels, channels);
    cudaDeviceSynchronize();
    return 0;
}
