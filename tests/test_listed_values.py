"""A launch in a generic lambda that a runner calls with each element of a compile-time integer list
(`mp_for_each<mp_list_c<int, 64, 32, 16>>([&](auto NumTLP) { k<NumTLP><<<...>>>(...); })`) is made
with each element: the kernel's template values, its integer arguments and the launch shape are read
at each, the values one element gives going together. A lambda a function calls some other way
gives no value."""
from cudalint.lint import Config, lint_paths

RUNNER = """#include <type_traits>
#include <utility>
template <typename List> struct each_of;
template <typename T, T... Is> struct each_of<std::integer_sequence<T, Is...>> {
  template <typename F> static void run(F&& f) { (f(std::integral_constant<T, Is>{}), ...); }
};
template <typename List, typename F> void mp_for_each(F&& f) { each_of<List>::run(f); }
template <typename T, T... Is, typename F> void for_each(std::integer_sequence<T, Is...>, F&& f) {
  (f(std::integral_constant<T, Is>{}), ...);
}
"""

# a column read of a padded tile: conflict-free at odd paddings, 2-way at 2, 4-way at 4
KERNEL = """
template <int PAD>
__global__ void transpose_pad(const float* in, float* out, int n) {
  __shared__ float tile[32][32 + PAD];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  if (x < n && y < n) tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x, oy = blockIdx.x * 32 + threadIdx.y;
  if (ox < n && oy < n) out[oy * n + ox] = tile[threadIdx.x][threadIdx.y];
}
"""


def lint(tmp_path, launcher: str, **params):
    path = tmp_path / "k.cu"
    path.write_text(RUNNER + KERNEL + launcher)
    return lint_paths([str(path)], Config(params=params, show_limits=True)).diagnostics


def conflicts(diags) -> list:
    return [d for d in diags if d.code == "CL401"]


def test_each_element_of_a_class_scope_alias_is_a_run(tmp_path):
    diags = lint(tmp_path, """
struct Transposer {
  using paddings = std::integer_sequence<int, 1, 2>;
  void operator()(const float* in, float* out, int n) const {
    mp_for_each<paddings>([&](auto pad) {
      transpose_pad<pad><<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(in, out, n);
    });
  }
};
""")
    [d] = conflicts(diags)
    assert "2-way" in d.message and "when PAD = 2" in d.message
    assert "runs the lambda at line" in d.message and "with each of 1, 2 (`paddings`)" in d.message
    assert not any(d.code == "CL901" and "PAD" in d.message for d in diags)


def test_odd_elements_only_make_no_finding(tmp_path):
    diags = lint(tmp_path, """
void run(const float* in, float* out, int n) {
  mp_for_each<std::integer_sequence<int, 1, 3>>([&](auto pad) {
    transpose_pad<pad><<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(in, out, n);
  });
}
""")
    assert not conflicts(diags)
    assert not any(d.code == "CL901" and "PAD" in d.message for d in diags)


def test_a_list_given_as_the_first_argument_and_a_value_derived_in_the_lambda(tmp_path):
    # `constexpr int pad = P + 1;` in the lambda: the element's value goes through the host's own
    # arithmetic; elements 0 and 1 give paddings 1 and 2, a conflict at the second only
    diags = lint(tmp_path, """
void run(const float* in, float* out, int n) {
  for_each(std::make_integer_sequence<int, 2>{}, [&](auto P) {
    constexpr int pad = P + 1;
    transpose_pad<pad><<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(in, out, n);
  });
}
""")
    [d] = conflicts(diags)
    assert "2-way" in d.message and "when PAD = 2" in d.message and "with each of 0, 1" in d.message


def test_a_list_of_constants_and_an_element_in_the_block(tmp_path):
    # the element is the block's width too: each run's block is the element's
    diags = lint(tmp_path, """
template <int W>
__global__ void rows(const float* in, float* out, int n) {
  int r = blockIdx.x * W + threadIdx.x;
  if (r < n) out[r] = in[r * W];
}
template <typename... Ts> struct tlist {};
void run(const float* in, float* out, int n) {
  using widths = tlist<std::integral_constant<int, 1>, std::integral_constant<int, 8>>;
  mp_for_each<widths>([&](auto w) {
    rows<w><<<(n + w - 1) / w, w>>>(in, out, n);
  });
}
""")
    strided = [d for d in diags if d.code in ("CL101", "CL102") and "in[" in d.message]
    assert strided and all("W = 8" in d.message for d in strided)


def test_a_lambda_a_function_calls_some_other_way_gives_no_value(tmp_path):
    # `apply` is no runner over the list's elements: the padding stays open, not 1 or 2
    diags = lint(tmp_path, """
template <typename List, typename F> void apply(F&& f) { f(std::integral_constant<int, 0>{}); }
void run(const float* in, float* out, int n) {
  apply<std::integer_sequence<int, 1, 2>>([&](auto pad) {
    transpose_pad<pad><<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(in, out, n);
  });
}
""")
    assert not any("runs the lambda" in d.message for d in diags)
    assert not any("PAD = 2" in d.message for d in diags if d.severity == "warning")
