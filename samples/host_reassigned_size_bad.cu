// The same kernel launched with the row still counted in floats: the guard lets i run to rows *
// cols float4s, four times the floats the buffers hold.
__global__ void add_one4(const float *in, float *out, int rows, int cols)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows * cols)
        return;
    float4 v = reinterpret_cast<const float4 *>(in)[i];     // expect: CL201
    v.x += 1.0f;
    v.y += 1.0f;
    v.z += 1.0f;
    v.w += 1.0f;
    reinterpret_cast<float4 *>(out)[i] = v;                 // expect: CL201
}

void run_add_one4(int rows, int cols)
{
    float *in, *out;
    cudaMalloc(&in, rows * cols * sizeof(float));
    cudaMalloc(&out, rows * cols * sizeof(float));
    int n = rows * cols;
    add_one4<<<(n + 1023) / 1024, 1024>>>(in, out, rows, cols);
}
