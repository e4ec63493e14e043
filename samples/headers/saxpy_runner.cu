// expect-clean
// Host side for headers/saxpy_kernel.cuh: the launch lives here, the finding in
// the header (cudalint links launches across the files it lints).
#include "saxpy_kernel.cuh"

// cudalint: param n=1000
void run_saxpy(int n, float a, const float* x, float* y) {
  saxpy<<<(n + 255) / 256, 256>>>(n, a, x, y);
}
