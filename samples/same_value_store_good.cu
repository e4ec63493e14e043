// expect-clean
// Group normalisation, last step: one thread per channel, and every channel of a group stores
// the group's mean to the group's slot. All the writers of a slot store one value (a function of
// the group's sum alone), so the duplicate stores lose nothing, whichever lands last.
__global__ void group_mean(const float *group_sum, float *group_mean, int groups,
                           int channels_per_group, float inv_count)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;   // this thread's channel
    int g = c / channels_per_group;                  // its group
    if (g < groups) {
        float s = group_sum[g];                      // the same sum for every channel of g
        group_mean[g] = s * inv_count;               // the same value from every writer
    }
}

void run_group_mean(const float *sum, float *mean, int groups, int channels_per_group, float inv_count)
{
    int channels = groups * channels_per_group;
    group_mean<<<(channels + 127) / 128, 128>>>(sum, mean, groups, channels_per_group, inv_count);
}
