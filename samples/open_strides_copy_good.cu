// expect-clean
// A strided 3-D copy: each thread moves element (x, y, z) of a view whose strides the caller
// passes in a struct. Two threads store to one element only where the strides satisfy a relation
// (s1 == s0, 3 * s1 == 2 * s0 + s2, ...), which a view's strides, each a multiple of the span
// below it, never do: no overlapping store.
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
        dst.ptr[x * dst.strides[0] + y * dst.strides[1] + z * dst.strides[2]] =
            src.ptr[x * src.strides[0] + y * src.strides[1] + z * src.strides[2]];
}

void run_copy3d(View dst, View src)
{
    dim3 block(32, 4, 4);
    dim3 grid((dst.dims[0] + 31) / 32, (dst.dims[1] + 3) / 4, (dst.dims[2] + 3) / 4);
    copy3d<<<grid, block>>>(dst, src);
}
