"""A kernel template is compiled only for the instances something in its translation units names:
one nothing names, in units that launch other kernels, is reported as not analysed instead of being
analysed at types and blocks cudalint would make up; any use of its name (a launch, an explicit
instantiation, a pointer taken, a macro that pastes the name) keeps it analysed, and so does a
header no linted unit includes (a library's users launch its kernels from elsewhere)."""
from pathlib import Path

from cudalint.lint import Config, lint_paths

LEFTOVER = """
template <typename T>
__global__ void gather_v1(const T* in, T* out, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows) return;
  for (int c = 0; c < cols; ++c) out[r * cols + c] = in[r * cols + c];
}
__global__ void fill(float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 0.0f;
}
void run(float* out, int n) { fill<<<(n + 255) / 256, 256>>>(out, n); }
"""


def lint(tmp_path, files: dict[str, str], only: list[str] | None = None) -> list:
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    paths = [str(tmp_path / n) for n in (only or files)]
    return lint_paths(paths, Config(show_limits=True)).diagnostics


def codes(diags) -> list[str]:
    return sorted(d.code for d in diags if d.severity in ("warning", "error"))


def not_compiled(diags) -> list:
    return [d for d in diags if d.code == "CL901" and "no instance of the template is compiled" in d.message]


def test_a_template_nothing_names_in_a_program_is_not_analysed(tmp_path):
    diags = lint(tmp_path, {"k.cu": LEFTOVER})
    assert codes(diags) == []
    [note] = not_compiled(diags)
    assert note.line == 2 and "`gather_v1`" in note.message


def test_a_mention_in_a_comment_is_no_instance(tmp_path):
    diags = lint(tmp_path, {"k.cu": "// gather_v1 was the first version\n/* see gather_v1<float> */" + LEFTOVER})
    assert codes(diags) == [] and not_compiled(diags)


def test_a_launch_an_explicit_instantiation_or_a_pointer_keeps_it_analysed(tmp_path):
    for use in ("void run2(float* i, float* o, int r, int c) { gather_v1<float><<<(r + 255) / 256, 256>>>(i, o, r, c); }",
                "template __global__ void gather_v1<float>(const float*, float*, int, int);",
                "void* table[] = {(void*)gather_v1<double>};"):
        diags = lint(tmp_path, {"k.cu": LEFTOVER + use + "\n"})
        assert "CL101" in codes(diags), use
        assert not not_compiled(diags), use


def test_a_name_a_macro_pastes_keeps_it_analysed(tmp_path):
    src = LEFTOVER.replace("gather_v1", "gather_kernel") + \
        "#define LAUNCH(op, T) op##_kernel<T><<<1, 256>>>\nvoid run3(float* i, float* o) { LAUNCH(gather, float)(i, o, 10, 10); }\n"
    diags = lint(tmp_path, {"k.cu": src})
    assert not not_compiled(diags)


def test_a_header_of_a_library_no_unit_launches_from_is_analysed(tmp_path):
    header = LEFTOVER.split("__global__ void fill")[0]
    diags = lint(tmp_path, {"lib.cuh": header})
    assert "CL101" in codes(diags) and not not_compiled(diags)
    # included by a unit that launches nothing: a library's header, its users' launches elsewhere
    diags = lint(tmp_path, {"lib.cuh": header, "api.cu": '#include "lib.cuh"\nint version() { return 1; }\n'})
    assert "CL101" in codes(diags) and not not_compiled(diags)


def test_a_header_copy_the_launching_unit_does_not_name_is_not_analysed(tmp_path):
    header = LEFTOVER.split("__global__ void fill")[0]
    runner = '#include "old.cuh"\n' + LEFTOVER.split("template <typename T>", 1)[0] + \
        "__global__ void fill(float* out, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n" \
        "  if (i < n) out[i] = 0.0f;\n}\nvoid run(float* out, int n) { fill<<<(n + 255) / 256, 256>>>(out, n); }\n"
    diags = lint(tmp_path, {"old.cuh": header, "main.cu": runner})
    [note] = not_compiled(diags)
    assert note.path.endswith("old.cuh") and codes(diags) == []


def test_a_header_not_found_after_the_definition_may_launch_it(tmp_path):
    # a launch file a build step writes, included after the kernels: it may name the template
    diags = lint(tmp_path, {"k.cu": LEFTOVER + '#include "generated_launches.cu"\n'})
    assert "CL101" in codes(diags) and not not_compiled(diags)
    # a configuration header read before the definition cannot name it
    diags = lint(tmp_path, {"k.cu": '#include "generated_config.h"\n' + LEFTOVER})
    assert not_compiled(diags) and "CL101" not in codes(diags)


TILES = """
template <int TILE>
__global__ void blend(const float* src, float* out, int width, int tiles_x) {
  ASSERTION
  const int lane = threadIdx.x % 32;
  const int tile = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32;
  const int x = (tile % tiles_x) * TILE + lane % TILE;
  const int y = (tile / tiles_x) * TILE + lane / TILE;
  out[y * width + x] = src[tile * 32 + lane];
}
"""


def sizes_line(diags) -> str:
    return next(a for d in diags for a in d.assumptions if a.startswith("sizes not given"))


def test_a_static_assert_in_the_kernel_bounds_the_values_its_template_is_tried_at(tmp_path):
    allowed_only = 'static_assert(TILE >= 8 && 32 % TILE == 0, "whole sectors");'
    assert codes(lint(tmp_path, {"k.cu": TILES.replace("ASSERTION", allowed_only)})) == []
    small = lint(tmp_path, {"k.cu": TILES.replace("ASSERTION", 'static_assert(TILE == 2 || TILE == 4, "small");')})
    assert codes(small) == ["CL101"]
    # both values the assertion allows are tried, not one of them twice
    assert "TILE = 4 and 2" in sizes_line(small)


def test_a_name_that_picks_a_shift_count_is_not_one(tmp_path):
    src = TILES.replace("ASSERTION", "constexpr int SHIFT = TILE == 16 ? 4 : 3;").replace(
        "lane / TILE", "(lane >> SHIFT)").replace("lane % TILE", "(lane & (TILE - 1))")
    diags = lint(tmp_path, {"k.cu": src + "void run(const float* s, float* o, int w, int t) "
                                           "{ blend<16><<<t, 256>>>(s, o, w, t); }\n"})
    assert codes(diags) == []
    alone = lint(tmp_path, {"k.cu": src})
    assert "TILE = 10" not in " ".join(a for d in alone for a in d.assumptions)



SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_an_arm_that_tried_values_of_two_open_names_pick_is_a_condition(tmp_path):
    # no launch gives SB or padding_l: the `else` arm of `if (padding_l < SB)` runs at every trial
    # (1000 and 1000, 1024 and 1024, 1024 and 1001), a relation of cudalint's, not the program's
    src = (SAMPLES / "open_test_arm_good.cu").read_text()
    assert "CL501" not in codes(lint(tmp_path, {"k.cu": src}))
    shown = lint_paths([str(tmp_path / "k.cu")], Config(show_uncertain=True)).diagnostics
    assert any(d.code == "CL501" and d.severity == "info" and "only when `padding_l >= SB`" in d.message
               for d in shown)
    # a launch that takes the `else` arm: the race is the program's
    launched = src + "void run(const float* i, const float* f, int n, float* o) " \
                     "{ conv_forward<255, 64, 127><<<1, 64>>>(i, f, n, o); }\n"
    assert "CL501" in codes(lint(tmp_path, {"k.cu": launched}))


LAYER = """
#define INSTANTIATE_GPU_FUNCS(classname) \\
  template void classname<float>::Forward_gpu(const float* in, float* out, int n); \\
  template void classname<double>::Forward_gpu(const double* in, double* out, int n)

template <typename Dtype>
__global__ void pick_forward(const Dtype* in, Dtype* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * 4];
}
template <typename Dtype>
class PickLayer { public: void Forward_gpu(const Dtype* in, Dtype* out, int n); };

template <typename Dtype>
void PickLayer<Dtype>::Forward_gpu(const Dtype* in, Dtype* out, int n) {
  pick_forward<Dtype><<<(n + 255) / 256, 256>>>(in, out, n);
}
INSTANTIATE_GPU_FUNCS(PickLayer);
"""


def test_a_class_template_member_instantiated_by_a_macro_binds_the_kernel_s_type(tmp_path):
    # the launch's `Dtype` is the class's: the macro's explicit instantiations make it float and
    # double, and the kernel is read at the first of them instead of at widths cudalint picks
    diags = lint(tmp_path, {"layer.cu": LAYER})
    [d] = [d for d in diags if d.code == "CL101"]
    assert "lanes 16 B apart" in d.message
    assert any("instantiated as <float>, <double>" in a for a in d.assumptions)
    assert not any("not bound by a launch" in a for a in d.assumptions)


_ARMS = """template <class T, int N> struct Array { T v[N]; };

template <class T, int N>
__device__ void put(T* dst, const Array<T, N>& a)
{
    if constexpr (sizeof(Array<T, N>) == 4) {
        *(unsigned*)dst = (const unsigned&)a;
    } else {
        for (int i = 0; i < N; ++i)
            dst[i] = a.v[i];
    }
}

template <class T, int N>
__global__ void fill(T* out, const T* in, int n)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < n) {
        Array<T, N> a;
        for (int i = 0; i < N; ++i)
            a.v[i] = in[i * n + p];
        put(out + p * N, a);
    }
}

LAUNCH
"""


def test_an_if_constexpr_no_launch_decides_makes_its_arms_findings_conditional(tmp_path):
    """Each instance compiles one arm of an `if constexpr`: where the program's launches do not say
    which instances there are, a finding in an arm holds only for the instances taking it, an info;
    where a launch gives `T` and `N`, the arm of that instance is the kernel, and its finding stands."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "arms.cu"
    path.write_text(_ARMS.replace("LAUNCH", "template <class T, int N> void run(T* o, const T* x, int n) "
                                            "{ fill<T, N><<<(n + 255) / 256, 256>>>(o, x, n); }"))
    assert not [d for d in lint_paths([str(path)], Config()).diagnostics if d.severity in ("warning", "error")]
    shown = [d for d in lint_paths([str(path)], Config(show_uncertain=True)).diagnostics if d.code == "CL101"]
    assert {d.line for d in shown} == {7, 10} and all(d.severity == "info" for d in shown)
    path.write_text(_ARMS.replace("LAUNCH", "void run(float* o, const float* x, int n) "
                                            "{ fill<float, 2><<<(n + 255) / 256, 256>>>(o, x, n); }"))
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"]
    assert [(d.line, d.severity) for d in found] == [(10, "warning")]


EIGHT_INSTANCES = """template <bool full, bool multi, bool wide>
struct Traits {
    static __device__ bool isWide() { return wide; }
};
template <class traits>
__global__ void copy(const float* in, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = traits::isWide() ? in[i * 4] : in[i];
}
void run(const float* in, float* out, int n, unsigned code) {
  dim3 grid((n + 255) / 256);
  switch (code) {
  case 0: copy<Traits<false, false, false>><<<grid, 256>>>(in, out, n); break;
  case 1: copy<Traits<false, true, false>><<<grid, 256>>>(in, out, n); break;
  case 2: copy<Traits<true, false, false>><<<grid, 256>>>(in, out, n); break;
  case 3: copy<Traits<true, true, false>><<<grid, 256>>>(in, out, n); break;
  case 4: copy<Traits<false, false, true>><<<grid, 256>>>(in, out, n); break;
  case 5: copy<Traits<false, true, true>><<<grid, 256>>>(in, out, n); break;
  case 6: copy<Traits<true, false, true>><<<grid, 256>>>(in, out, n); break;
  case 7: copy<Traits<true, true, true>><<<grid, 256>>>(in, out, n); break;
  }
}
"""


def test_the_other_launches_read_take_each_value_of_each_template_argument(tmp_path):
    # eight instances, four read: those read are chosen to meet each argument's values, so the one
    # pattern the first instances share (`wide` false in the first four) does not hide the others
    diags = lint(tmp_path, {"k.cu": EIGHT_INSTANCES})
    [d] = [d for d in diags if d.severity == "warning"]
    assert d.code == "CL101" and "in[i * 4]" in d.message and ", true>>`" in d.message


OVERLOADS = """
template <typename T>
__global__ void pad(T* dst, const T* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[x * h + y] = src[y * w + x];
}
template <typename T>
__global__ void pad(T* dst, const SOURCE* src, int w, int h) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) dst[y * w + x] = T(src[y * w + x]);
}
template <typename T>
void pad_from(T* dst, const ARG* src, int w, int h) {
  pad<<<dim3((w + 31) / 32, (h + 7) / 8), dim3(32, 8)>>>(dst, src, w, h);
}
template void pad_from(float* dst, const ARG* src, int w, int h);
"""


def overloads(source: str, arg: str) -> str:
    return "#include <cstdint>\n" + OVERLOADS.replace("SOURCE", source).replace("ARG", arg)


def test_a_launch_runs_the_overload_its_argument_types_match(tmp_path):
    # `pad(float*, const unsigned char*)`: the first template would deduce T as float and as
    # unsigned char; the second is the one launched, and the first is not analysed
    diags = lint(tmp_path, {"k.cu": overloads("unsigned char", "unsigned char")})
    assert codes(diags) == []
    [note] = [d for d in diags if d.code == "CL901"]
    assert note.line == 3 and "calls another kernel template of the name" in note.message


def test_a_source_of_the_target_type_runs_the_first_overload(tmp_path):
    diags = lint(tmp_path, {"k.cu": overloads("unsigned char", "T")})
    assert [(d.line, d.code) for d in diags if d.severity == "warning"] == [(6, "CL102")]
    assert any(d.code == "CL901" and d.line == 8 and "another kernel template" in d.message for d in diags)


def test_a_typedef_is_not_read_as_another_type(tmp_path):
    # `const uint8_t*` beside `const unsigned char*`: a typedef may name either, so the second
    # overload keeps the launch (the first is still ruled out by its two deductions)
    diags = lint(tmp_path, {"k.cu": overloads("uint8_t", "unsigned char")})
    assert codes(diags) == []
    assert any(d.code == "CL901" and d.line == 3 for d in diags)
    assert not any(d.code == "CL901" and d.line == 8 for d in diags)


def test_a_host_template_instantiated_with_a_nested_template_argument_binds_the_kernel_type(tmp_path):
    # `scale<Pair<float>, 64>(...)`: the instance's first argument holds its own `<>`; the kernel's
    # element is the 8-byte `Pair<float>`, so a warp's loads of `v[i].a` span 8-byte records
    src = """
template <typename T> struct Pair { T a, b; };
template <typename P>
__global__ void first_of(const P* v, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = v[i].a;
}
template <typename P, int B>
void scale(const P* v, float* out, int n) { first_of<<<(n + B - 1) / B, B>>>(v, out, n); }
void run(const Pair<float>* v, float* out, int n) { scale<Pair<float>, 64>(v, out, n); }
"""
    diags = lint(tmp_path, {"k.cu": src})
    [d] = [d for d in diags if d.code == "CL101"]
    assert "v[i].a" in d.message and d.line == 6
