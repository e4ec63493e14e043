"""What the model reads of statements people write, and what it does with one it cannot read."""
from __future__ import annotations

import textwrap

from cudalint.index.parse import parse_expr
from cudalint.lint import Config, lint_paths


def lint(tmp_path, source: str):
    f = tmp_path / "k.cu"
    f.write_text(textwrap.dedent(source))
    return lint_paths([str(f)], Config(jobs=1, show_limits=True))


def test_a_variable_named_like_a_type_is_read_as_the_variable(tmp_path):
    res = lint(tmp_path, """\
        __global__ void embed(const float* t, float* dst, int dim) {
          int j = threadIdx.x + blockIdx.x * blockDim.x;
          int half = dim / 2;
          if (j >= half) return;
          float arg = t[blockIdx.y] * expf(-9.2f * j / half);
          dst[blockIdx.y * dim + j] = cosf(arg);
          dst[blockIdx.y * dim + j + half] = sinf(arg);
        }
        void run(const float* t, float* dst, int dim, int n) {
          embed<<<dim3((dim / 2 + 255) / 256, n), 256>>>(t, dst, dim);
        }
    """)
    (table,) = res.tables
    stores = [a for a in table.accesses if a.kind == "store"]
    assert len(stores) == 2 and all(a.guards for a in stores)
    assert not [d for d in res.diagnostics if d.code in ("CL202", "CL901")]
    assert str(parse_expr("j >= half")) == "j >= half" and str(parse_expr("(half)x")) == "(half)x"


def test_a_comment_inside_a_condition_leaves_the_condition(tmp_path):
    res = lint(tmp_path, """\
        __global__ void last(float2* out, const float* in, int cpg) {
          __shared__ float2 smem[32];
          int cj = threadIdx.x * 2;
          if (cj == cpg - 2 /* 2 channels per thread */) {
            smem[threadIdx.x % 32] = make_float2(in[cj], in[cj + 1]);
          }
          __syncthreads();
          out[threadIdx.x] = smem[threadIdx.x % 32];
        }
    """)
    (table,) = res.tables
    (store,) = [a for a in table.accesses if a.kind == "store" and a.space == "shared"]
    assert "cpg" in str(store.guards[0])
    assert not [d for d in res.diagnostics if d.code == "CL901" and "cannot read" in d.message]


def test_an_early_exit_not_read_still_guards_what_follows(tmp_path):
    res = lint(tmp_path, """\
        __global__ void scale(float* out, const float* in, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if (({ int t = i; t >= n; })) return;
          out[i] = 2.f * in[i];
        }
        void run(float* out, const float* in, int n) { scale<<<(n + 255) / 256, 256>>>(out, in, n); }
    """)
    assert [d.code for d in res.diagnostics if d.code != "CL901"] == []
    assert any(d.code == "CL901" and "cannot read" in d.message for d in res.diagnostics)


def test_a_guard_made_of_a_call_not_followed_may_be_the_bound(tmp_path):
    res = lint(tmp_path, """\
        __global__ void scale(float* out, const float* in, int n) {
          int i = blockIdx.x * blockDim.x + threadIdx.x;
          if ([&] { return i >= n; }()) return;
          out[i] = 2.f * in[i];
        }
        void run(float* out, const float* in, int n) { scale<<<(n + 255) / 256, 256>>>(out, in, n); }
    """)
    assert [d.code for d in res.diagnostics if d.code != "CL901"] == []
    assert not any("cannot read" in d.message for d in res.diagnostics)


def test_macros_used_as_statements_are_no_parse_errors(tmp_path):
    res = lint(tmp_path, """\
        #define LOCALS const int ne0 = 4; const int ne1 = 8;
        #define CALL_K(kern, T) kern<T><<<1, 32>>>(p);
        #define DISPATCH(name, ...) { __VA_ARGS__ }
        template <typename T> __global__ void k(T* p) { p[threadIdx.x] = 0; }
        void host(float* p, int mode) {
            LOCALS
            int nr0 = ne0 / 2;
            if (mode == 1) {
                CALL_K(k, float)
            } else {
                DISPATCH("k", using T = float; k<T><<<1, 32>>>(p););
            }
        }
        void broken(float* p) { p[0] = (1 + ; }
    """)
    parse = [d for d in res.diagnostics if d.code == "CL900"]
    assert [d.line for d in parse] == [14]
    assert [f["status"] for f in res.files] == ["parse-errors"]


def test_expressions_of_library_code_read():
    """Global-namespace calls, lambdas passed to collectives, members of class-template instances
    and names of several scopes: read, the parts cudalint does not follow as opaque values."""
    for text, read in [("::exp(-p)", "exp(-p)"),
                       ("Reduce(s, [](float a, float b) { return a + b; })", "Reduce(s, __lambda)"),
                       ("std::is_same<T, half2>::value", "is_same::value"),
                       ("Packed128<float>::size * 2", "Packed128::size * 2"),
                       ("cuda::std::max(a, b)", "std::max(a, b)"),
                       ("a[i] + b[j]", "a[i] + b[j]")]:
        assert str(parse_expr(text)) == read
