// The same copy with the plane stride written as the row stride (`z * dst.strides[1]`): thread
// (y = 1, z = 0) and thread (y = 0, z = 1) store the same element, whatever strides the caller
// passes.
struct View {
    float *ptr;
    long dims[3];
    long strides[3];
};

__global__ void copy3d(View dst, View src)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    int z = blockIdx.z * blockDim.z + threadIdx.z;
    if (x < dst.dims[0] && y < dst.dims[1] && z < dst.dims[2])
        dst.ptr[x * dst.strides[0] + y * dst.strides[1] + z * dst.strides[1]] =  // expect: CL302
            src.ptr[x * src.strides[0] + y * src.strides[1] + z * src.strides[2]];
}

void run_copy3d(View dst, View src)
{
    dim3 block(32, 4, 4);
    dim3 grid((dst.dims[0] + 31) / 32, (dst.dims[1] + 3) / 4, (dst.dims[2] + 3) / 4);
    copy3d<<<grid, block>>>(dst, src);
}
