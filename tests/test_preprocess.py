"""The preprocessing stage: what the compiler compiles, at the lines where it stands."""
import textwrap

from cudalint.lint import Config, lint_paths
from cudalint.preprocess import Preprocessor, file_key
from cudalint.preprocess.macros import Macro


def view(tmp_path, text, name="k.cu", defines=(), **files):
    for fname, body in files.items():
        (tmp_path / fname.replace("__", ".")).write_text(textwrap.dedent(body))
    path = tmp_path / name
    text = textwrap.dedent(text)
    path.write_text(text)
    return Preprocessor(defines).unit(str(path), text)[file_key(str(path))]


def kept(v):
    return [line for line in v.text.split("\n") if line.strip()]


def test_if_zero_and_untaken_arms_are_blanked_and_lines_keep_their_numbers(tmp_path):
    v = view(tmp_path, """\
        int a;
        #if 0
        int dead;
        #else
        int alive;
        #endif
        int b;
        """)
    lines = v.text.split("\n")
    assert lines[0] == "int a;" and lines[4] == "int alive;" and lines[6] == "int b;"
    assert "dead" not in v.text and "#if" not in v.text and "#endif" not in v.text
    assert v.inactive == [(3, 3)] and v.active(5) and not v.active(3)


def test_ifdef_else_takes_the_else_arm_when_the_macro_is_not_defined(tmp_path):
    v = view(tmp_path, """\
        #ifdef RD_WG_SIZE_0_0
        #define BLOCK_SIZE RD_WG_SIZE_0_0
        #elif defined(RD_WG_SIZE)
        #define BLOCK_SIZE RD_WG_SIZE
        #else
        #define BLOCK_SIZE 16
        #endif
        """)
    assert v.macros.get("BLOCK_SIZE").body == "16"


def test_a_define_on_the_command_line_picks_the_arm_and_wins(tmp_path):
    v = view(tmp_path, """\
        #ifdef RD_WG_SIZE
        #define BLOCK_SIZE RD_WG_SIZE
        #else
        #define BLOCK_SIZE 16
        #endif
        #define TILE 8
        """, defines=[Macro("RD_WG_SIZE", "32"), Macro("TILE", "64")])
    assert v.macros.expand("BLOCK_SIZE") == "32"
    assert v.macros.get("TILE").body == "64"


def test_conditions_use_arithmetic_defined_and_the_device_pass_macros(tmp_path):
    v = view(tmp_path, """\
        #define R 8
        #if R == 8 && defined(R) && !defined(NOPE)
        int radix8;
        #endif
        #if R == 4
        int radix4;
        #endif
        #if __CUDA_ARCH__ >= 800
        int ampere;
        #else
        int old;
        #endif
        """)
    assert kept(v)[1:] == ["int radix8;", "int ampere;"]


def test_nested_conditions_inside_a_skipped_arm_stay_skipped(tmp_path):
    v = view(tmp_path, """\
        #if 0
        #if 1
        int a;
        #else
        int b;
        #endif
        #elif 1
        int c;
        #endif
        """)
    assert kept(v) == ["int c;"]


def test_a_header_defines_what_the_includer_tests(tmp_path):
    v = view(tmp_path, """\
        #include "srad.h"
        #ifdef GPU
        dim3 threads(16, 16);
        #endif
        """, srad__h="#define GPU\n#define BLOCK_SIZE 16\n")
    assert "dim3 threads(16, 16);" in v.text
    assert v.macros.at(1).get("BLOCK_SIZE").body == "16"
    assert v.includes == [file_key(str(tmp_path / "srad.h"))]


def test_include_guards_and_pragma_once_stop_a_second_inclusion(tmp_path):
    (tmp_path / "a.h").write_text("#ifndef A_H\n#define A_H\nint a_twice;\n#endif\n")
    (tmp_path / "b.h").write_text("#pragma once\n#define COUNT_B 2\n")
    text = '#include "a.h"\n#include "a.h"\n#include "b.h"\n#include "b.h"\n'
    (tmp_path / "k.cu").write_text(text)
    views = Preprocessor().unit(str(tmp_path / "k.cu"), text)
    root = views[file_key(str(tmp_path / "k.cu"))]
    assert root.macros.get("A_H") is not None and root.macros.get("COUNT_B").body == "2"
    assert root.reached == [root.key, file_key(str(tmp_path / "a.h")), file_key(str(tmp_path / "b.h"))]
    assert "a_twice" in views[file_key(str(tmp_path / "a.h"))].text     # the first inclusion's view


def test_undef_and_redefine_change_the_macro_where_they_stand(tmp_path):
    v = view(tmp_path, """\
        #define IDX(i, j) ((i) * 16 + (j))
        int a = IDX(1, 2);
        #undef IDX
        #define IDX(i, j) ((j) * 16 + (i))
        int b = IDX(1, 2);
        #undef IDX
        """)
    assert v.macros.at(2).expand("IDX(1,2)") == "((1) * 16 + (2))"
    assert v.macros.at(5).expand("IDX(1,2)") == "((2) * 16 + (1))"
    assert v.macros.get("IDX") is None          # at the end of the file it is gone


def test_an_endif_inside_a_comment_of_a_skipped_region_is_not_a_directive(tmp_path):
    v = view(tmp_path, """\
        #if 0
        /* old code
        #endif
        */
        int dead;
        #endif
        int alive;
        """)
    assert kept(v) == ["int alive;"]


def test_a_condition_that_cannot_be_evaluated_is_false_and_said(tmp_path):
    v = view(tmp_path, """\
        #if 1 / 0
        int a;
        #endif
        """)
    assert kept(v) == [] and "division by zero" in v.problems[0].message


def test_has_include_looks_for_the_local_header(tmp_path):
    (tmp_path / "here.h").write_text("")
    v = view(tmp_path, """\
        #if __has_include("here.h")
        int found;
        #endif
        #if __has_include("missing.h")
        int missing;
        #endif
        """)
    assert kept(v) == ["int found;"]


def test_code_under_if_zero_gives_no_finding(tmp_path):
    (tmp_path / "k.cu").write_text(textwrap.dedent("""\
        __global__ void k(float* out, const float* in, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
        #if 0
          out[i * n] = in[i * n];
        #endif
          if (i < n) out[i] = in[i];
        }
        void run(float* o, const float* a) { k<<<4096 / 256, 256>>>(o, a, 4096); }
        """))
    assert lint_paths([str(tmp_path)], Config(debug=True)).diagnostics == []


def test_a_macro_defined_in_the_kernel_and_undefined_after_it_is_expanded(tmp_path):
    (tmp_path / "k.cu").write_text(textwrap.dedent("""\
        __global__ void k(float* out, const float* in) {
        #define AT(r, c) ((c) * 1024 + (r))
          out[AT(threadIdx.x, blockIdx.x)] = in[AT(threadIdx.x, blockIdx.x)];
        #undef AT
        }
        void run(float* o, const float* a) { k<<<1024, 1024>>>(o, a); }
        """))
    result = lint_paths([str(tmp_path)], Config(debug=True))
    assert [d.code for d in result.diagnostics if d.code != "CL901"] == []
    assert not any("AT" in d.message for d in result.diagnostics)


def test_a_file_that_includes_itself_stops_at_the_text_budget_and_says_so(tmp_path, monkeypatch):
    """Each reading of a file that includes itself defines its macros again; past the text a unit
    may read, the next `#include` is not followed, and the view says why (the compiler's own limit
    is its include depth, which such a file reaches only after thousands of readings)."""
    from cudalint import preprocess
    monkeypatch.setattr(preprocess, "MAX_UNIT_BYTES", 1 << 20)
    monkeypatch.setattr(preprocess, "MAX_SAME_HEADER", 10_000)      # the text budget is the one tested here
    big = "#define WIDE_%d (" + " + ".join(["x"] * 400) + ")\n"
    body = "".join(big % i for i in range(20))            # about 32 KB
    path = tmp_path / "self.cu"
    path.write_text('#include "self.cu"\n' * 5 + body + "#if defined(WIDE_3)\nint kept;\n#endif\n")
    text = path.read_text()
    pre = preprocess.Preprocessor()
    v = pre.unit(str(path), text)[file_key(str(path))]
    said = [p.message for p in v.problems if "past the 1 MB of text" in p.message]
    assert said and all("not followed" in m for m in said)
    assert pre._unit_bytes < (1 << 20) + len(text)          # read up to the budget, and no further
    assert "int kept;" in v.text                             # the macros read before it still count


def test_a_definition_made_again_from_the_same_text_gives_the_same_answers():
    """pcpp's macro for a definition is kept by its text and reused; a definition pcpp refuses
    leaves the earlier one in place, as pcpp itself does."""
    from cudalint.preprocess.condition import Conditions
    c = Conditions()
    c.define("N", None, "(1 << 4)")
    c.define("F", ("a", "b"), "((a) * (b) + N)")
    first = c.evaluate("F(2, 3) == 22", lambda *a: False)
    c.define("N", None, "0")
    assert not c.evaluate("F(2, 3) == 22", lambda *a: False)
    c.define("N", None, "(1 << 4)")                            # the same text again: the kept macro
    assert c.evaluate("F(2, 3) == 22", lambda *a: False) == first is True
    c.define("F", ("1",), "7")                                 # refused by pcpp (not a parameter name)
    assert c.evaluate("F(2, 3) == 22", lambda *a: False)
    c.define("F", ("1",), "7")                                 # and refused again, not taken from the kept ones
    assert c.evaluate("F(2, 3) == 22", lambda *a: False)


def test_true_in_a_condition_is_one_as_nvcc_reads_cpp(tmp_path):
    # `#define MAXIMIZE true` then `#if MAXIMIZE`: C reads an unknown name as 0, C++ (nvcc) reads
    # `true` as 1, so the kernel inside is compiled and linted
    from cudalint.lint import Config, lint_paths
    f = tmp_path / "k.cu"
    f.write_text("#define FLAG true\n#if FLAG\n__global__ void k(float* a) { a[threadIdx.x * 2] = 1; }\n#endif\n")
    assert [d.code for d in lint_paths([str(f)], Config()).diagnostics] == ["CL101"]


def test_alternative_tokens_in_a_condition_are_read(tmp_path):
    f = tmp_path / "alt.cu"
    f.write_text(textwrap.dedent("""\
        #define WAVE 64
        #if defined(__HIP_PLATFORM_AMD__) and WAVE == 64
        __global__ void amd_only(float* a) { a[threadIdx.x] = 1; }
        #elif not defined(NO_CUDA) and (WAVE == 64 or WAVE == 32)
        __global__ void cuda_path(float* a) { a[threadIdx.x] = 2; }
        #endif
    """))
    res = lint_paths([str(f)], Config(show_limits=True))
    assert [t.kernel for t in res.tables] == ["cuda_path"]
    assert not [d for d in res.diagnostics if d.code == "CL900"]


def test_a_macro_testing_defined_is_read_as_the_compilers_read_it(tmp_path):
    # `#define BF16 (defined(V) && V >= 11000)` then `#if BF16`: `defined(V)` sees the name V, in a
    # header reached from two units alike (the second replays the header's reading)
    (tmp_path / "flags.h").write_text("#define BF16_ENABLED (defined(CUDART_VERSION) && CUDART_VERSION >= 11000)\n")
    text = '#include "flags.h"\n#if BF16_ENABLED\nint bf16;\n#else\nint none;\n#endif\n'
    pre = Preprocessor()
    for name in ("a.cu", "b.cu"):
        path = tmp_path / name
        path.write_text(text)
        v = pre.unit(str(path), text)[file_key(str(path))]
        assert "int bf16;" in v.text and "int none;" not in v.text and not v.problems


def test_a_cuda_build_switch_nothing_defines_is_taken_as_defined(tmp_path):
    v = view(tmp_path, """\
        #ifdef USE_CUDA
        int gpu;
        #endif
        #if defined(MYLIB_WITH_CUDA) && HAVE_CUDA
        int both;
        #endif
        #undef WITH_CUDA
        #ifdef WITH_CUDA
        int undone;
        #endif
        #ifdef USE_CUDNN_V9
        int other;
        #endif
        #if GMX_GPU_CUDA
        int project_gpu;
        #elif GMX_GPU_OPENCL
        int opencl;
        #endif
        """)
    assert "int gpu;" in v.text and "int both;" in v.text and "int project_gpu;" in v.text
    assert "int undone;" not in v.text and "int other;" not in v.text and "int opencl;" not in v.text
    off = view(tmp_path, "#if USE_CUDA\nint gpu;\n#endif\n", name="c.cu", defines=[Macro("USE_CUDA", "0")])
    assert "int gpu;" not in off.text
