// The same step reading each channel's own value: the writers of a group's slot now store
// different values (channel c's x[c]), and which one survives is unspecified.
__global__ void group_mean(const float *x, float *group_mean, int groups,
                           int channels_per_group, float inv_count)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's channel
    int g = c / channels_per_group;                  // its group
    if (g < groups) {
        float s = x[c];                              // this channel's own value
        group_mean[g] = s * inv_count;               // one slot, many values  // expect: CL302
    }
}

void run_group_mean(const float *x, float *mean, int groups, int channels_per_group, float inv_count)
{
    int channels = groups * channels_per_group;
    group_mean<<<(channels + 127) / 128, 128>>>(x, mean, groups, channels_per_group, inv_count);
}
