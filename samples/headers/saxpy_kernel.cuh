// SAXPY kernel shipped in a header with no launch of its own; it is launched by
// saxpy_runner.cu with a ceil-div grid. There is no tail guard, so the excess
// threads of the last block read and write past the end of x and y.
#pragma once

__global__ void saxpy(int n, float a, const float* __restrict__ x, float* __restrict__ y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i];  // expect: CL202
}
