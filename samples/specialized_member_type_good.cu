// A solver names its element type through a precision map, one specialization per precision
// (double, float, bool), and launches the kernel for the float configuration. `Prec<p>::Type` has a
// different target in each specialization, so it is not taken as any one of them: `temp` holds
// four 4-byte elements, and the 16-byte copy into it stays inside.
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
    Value temp[4];
    *reinterpret_cast<float4 *>(temp) = in[i];
    out[i] = temp[0] + temp[1] + temp[2] + temp[3];
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
// expect-clean
