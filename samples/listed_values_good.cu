// expect-clean
// A transpose whose tile padding is a template parameter, launched once for
// each padding of a compile-time list: a generic lambda run over the list's
// elements (the for-each idiom of Boost.Mp11 and the libraries that copy it).
// Every padding of the list is odd, and the column read is free of bank
// conflicts at each.
#include <type_traits>
#include <utility>

template <typename List> struct each_of;
template <typename T, T... Is> struct each_of<std::integer_sequence<T, Is...>> {
  template <typename F> static void run(F&& f) { (f(std::integral_constant<T, Is>{}), ...); }
};
template <typename List, typename F> void static_for_each(F&& f) { each_of<List>::run(f); }

template <int PAD>
__global__ void transpose_pad(const float* __restrict__ in, float* __restrict__ out, int n) {
  __shared__ float tile[32][32 + PAD];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  if (ox < n && oy < n) out[oy * n + ox] = tile[threadIdx.x][threadIdx.y];
}

struct Transposer {
  using paddings = std::integer_sequence<int, 1, 3>;
  void operator()(const float* in, float* out, int n) const {
    static_for_each<paddings>([&](auto pad) {
      dim3 block(32, 32), grid((n + 31) / 32, (n + 31) / 32);
      transpose_pad<pad><<<grid, block>>>(in, out, n);
    });
  }
};

void run_transpose(const float* in, float* out, int n) { Transposer()(in, out, n); }
