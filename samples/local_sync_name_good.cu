// expect-clean
// A search that checks four marks per element through a small lambda the author named `sync`
// (it syncs a flag with memory, no threads). Only odd elements are searched, so the call sits
// under a per-thread condition: that is no barrier, and no divergence.
__global__ void scan_marks(const unsigned *marks, unsigned *hits, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    bool found = false;
    auto sync = [&](int j) {
        if (marks[j * n + i] == 7u) found = true;
    };
    for (int j = 0; j < 4; ++j) {
        if (!found && (i & 1))
            sync(j);
    }
    hits[i] = found ? 1u : 0u;
}

void run_scan_marks(const unsigned *marks, unsigned *hits, int n)
{
    scan_marks<<<(n + 255) / 256, 256>>>(marks, hits, n);
}
