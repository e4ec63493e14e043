// The same kernel with `temp` cut to two elements: for the float configuration it holds 8 bytes,
// and the 16-byte copy into it runs 8 bytes past its end.
enum Precision { kDouble, kFloat, kBool };
template <Precision p> struct Prec;
template <> struct Prec<kDouble> { typedef double Type; };
template <> struct Prec<kFloat> { typedef float Type; };
template <> struct Prec<kBool> { typedef bool Type; };

template <Precision p> struct Config {
    typedef Prec<p> PrecInfo;
    typedef typename PrecInfo::Type Value;
};

template <typename Value>
__global__ void scale4(const float4 *in, Value *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    Value temp[2];
    *reinterpret_cast<float4 *>(temp) = in[i];   // expect: CL201
    out[i] = temp[0] + temp[1];
}

template <class C> void launch(const float4 *in, void *out, int n)
{
    typedef typename C::Value Value;
    scale4<Value><<<(n + 255) / 256, 256>>>(in, (Value *)out, n);
}

void run(const float4 *in, float *out, int n)
{
    launch<Config<kFloat> >(in, out, n);
}
