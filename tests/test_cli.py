"""The command line as a user runs it: exit codes, formats, bad input."""
import json
import subprocess
import sys

import pytest

from conftest import SAMPLES


def run(*args, stdin=None):
    p = subprocess.run([sys.executable, "-m", "cudalint", *args], capture_output=True, text=True, input=stdin,
                       timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_clean_file_exits_0_and_prints_nothing():
    code, out, err = run(str(SAMPLES / "matmul_naive_good.cu"))
    assert (code, out, err) == (0, "", "")


def test_findings_exit_1_with_path_line_col_code_category():
    code, out, _ = run(str(SAMPLES / "matmul_naive_bad.cu"))
    assert code == 1
    first = out.splitlines()[0]
    path, line, col, rest = first.split(":", 3)
    assert path.endswith("matmul_naive_bad.cu") and int(line) > 0 and int(col) > 0
    assert rest.startswith(" warning: CL101 load of ")       # the severity word where gcc prints it


def test_check_subcommand_and_directory_recursion():
    code, out, _ = run("check", str(SAMPLES))
    assert code == 1
    assert "saxpy_kernel.cuh" in out          # found under samples/headers/
    assert "CL202" in out


def test_json_contract():
    code, out, _ = run(str(SAMPLES / "matmul_naive_bad.cu"), "--format", "json")
    assert code == 1
    doc = json.loads(out)
    assert set(doc) == {"version", "files", "diagnostics"}
    assert doc["files"][0]["kernels"] == ["matmul"] and doc["files"][0]["status"] == "ok"
    for d in doc["diagnostics"]:
        for key in ("path", "line", "column", "end_line", "end_column", "code", "name", "category", "severity",
                    "message", "kernel", "array", "access", "space", "metrics", "assumptions", "confirmed"):
            assert key in d
        assert d["confirmed"] is None
    names = {(d["code"], d["name"], d["category"]) for d in doc["diagnostics"]}
    assert ("CL102", "thread-y-major-access", "coalescing") in names


def test_unknown_launch_is_stated_as_an_assumption(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a, int n) {\n"
                 "  int i = threadIdx.x * n + threadIdx.y;\n  a[i] = 0.0f;\n}\n")
    code, out, _ = run(str(f), "--format", "json")
    doc = json.loads(out)
    d = doc["diagnostics"][0]
    assert d["code"] == "CL102" and d["subsumes"] == ["CL101"]
    # no launch: the finding holds for every 2-D block tried, and the assumption says which
    assert any("launch not found: checked with blockDim (32, 8, 1), (16, 16, 1), (32, 32, 1)" in a
               for a in d["assumptions"])


def test_launch_option_and_param_option(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* out, int N) {\n"
                 "  int row = blockIdx.y * blockDim.y + threadIdx.y;\n"
                 "  int col = blockIdx.x * blockDim.x + threadIdx.x;\n"
                 "  out[row * N + col] = 1.0f;\n}\n")
    code, out, _ = run(str(f), "--launch", "k:grid=2048,2048,1:block=32,32,1", "--param", "N=65536")
    assert code == 1 and "CL203" in out and "65536" in out
    code, out, _ = run(str(f), "--launch", "k:grid=2,2,1:block=32,32,1", "--param", "N=64")
    assert code == 0, out


def test_param_names_a_size_as_the_findings_name_it(tmp_path):
    # a member of a struct the kernel takes, and an element of one's array member read through a
    # method (`t.getSize(1)` returning `size_[i]`): both are sizes the findings name, and both
    # are given with --param in those words
    f = tmp_path / "k.cu"
    f.write_text("struct P { int n; };\n"
                 "template <int D> struct T { int size_[D]; __device__ int getSize(int i) const { return size_[i]; } };\n"
                 "__global__ void k(float* out, P p, T<2> t) {\n"
                 "  __shared__ float s[256];\n"
                 "  for (int i = threadIdx.x; i < p.n; i += blockDim.x) s[i] = 0;\n"
                 "  for (int i = threadIdx.x; i < t.getSize(1); i += blockDim.x) s[i] += 1;\n"
                 "  __syncthreads();\n  out[threadIdx.x] = s[threadIdx.x];\n}\n"
                 "void run(float* o, P p, T<2> t) { k<<<1, 256>>>(o, p, t); }\n")
    code, out, err = run(str(f), "--param", "p.n=512", "--param", "t.size_[1]=64")
    assert err == "" and code == 1 and "CL201" in out and "reaches 255 + 1*256 = 511" in out
    code, out, err = run(str(f), "--param", "p.n=256", "--param", "t.size_[1]=256")
    assert (code, err) == (0, ""), out
    assert "expected NAME=VALUE" in run(str(f), "--param", "p.n+1=4")[2]


def test_define_on_the_command_line(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text("__global__ void k(float* a) {\n  __shared__ float t[TILE];\n  t[threadIdx.x] = a[threadIdx.x];\n}\n"
                 "void run(float* a) { k<<<1, 64>>>(a); }\n")
    assert run(str(f), "-D", "TILE=32")[0] == 1
    assert run(str(f), "-D", "TILE=64")[0] == 0


def test_version_and_rule_docs():
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("cudalint ")
    code, out, _ = run("rule", "CL101")
    assert code == 0
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert section in out
    from cudalint.rules import ALL
    code, out, _ = run("rule", "--all")
    assert code == 0 and len(out.splitlines()) == len(ALL)
    cl910 = next(x for x in out.splitlines() if x.startswith("CL910"))
    assert cl910.split() == ["CL910", "unused-suppression", "suppression", "warning"]


@pytest.mark.parametrize("args, needle", [
    ((), "no input"),
    (("nope.cu",), "no such file"),
    (("--format", "xml", "x.cu"), "invalid choice"),
    (("--param", "N=abc", "x.cu"), "expected an integer"),
    (("--launch", "k:grid=1", "x.cu"), "bad --launch"),
    (("rule", "CL999"), "unknown rule"),
])
def test_usage_errors_exit_2_with_one_line(args, needle):
    code, out, err = run(*args)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and needle in err
    assert "Traceback" not in err


def test_bad_inputs_never_crash(tmp_path):
    cases = {
        "empty.cu": b"",
        "binary.cu": bytes(range(256)) * 4,
        "latin1.cu": "// caf\xe9\n__global__ void k(float* a) { a[threadIdx.x] = 0; }\n".encode("latin-1"),
        "unbalanced.cu": b"__global__ void k(float* a) {\n  if (threadIdx.x < 4) {\n    a[threadIdx.x * 32] = 1;\n",
        "macros.cu": b"#define A(x) B(x) + B(x)\n#define B(x) A(x)\n#define C(i,j) a[(i) * 32 + (j)]\n"
                     b"__global__ void k(float* a) { C(threadIdx.x, threadIdx.y) = A(1); }\n",
    }
    table = ",\n".join(", ".join(f"{(i * 31 + j) % 1000}.5f" for j in range(16)) for i in range(110000))
    big = ("__global__ void k(float* a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = 1.0f; }\n"
           "void run(float* a) { k<<<(1000 + 255) / 256, 256>>>(a, 1000); }\n"
           "static const float weights[] = {\n" + table + "\n};\n")
    cases["big.cu"] = big.encode()
    assert len(cases["big.cu"]) > 10_000_000
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
    for name in cases:
        code, out, err = run(str(tmp_path / name))
        assert "Traceback" not in err, name
        if name == "binary.cu":
            assert code == 2 and "binary" in err and len(err.strip().splitlines()) == 1
        else:
            assert code in (0, 1), (name, err)
    code, out, _ = run(str(tmp_path / "latin1.cu"))
    assert "CL900" in out and "not valid UTF-8" in out
    code, out, err = run(str(tmp_path / "unbalanced.cu"))     # a parse note is counted, the file named once
    assert "CL900" not in out and "1 parse note (CL900)" in err and "unbalanced.cu" in err
    code, out, _ = run(str(tmp_path / "unbalanced.cu"), "--show-limits")
    assert "CL900" in out
    code, out, _ = run(str(tmp_path / "big.cu"))
    assert code == 1 and "CL202" in out


def test_python_dash_m_and_console_script_agree():
    code, out, _ = run(str(SAMPLES / "vecadd_bad.cu"))
    assert code == 1 and "CL202" in out


def test_parse_notes_are_counted_and_each_file_named_once(tmp_path):
    bad = "__global__ void k(float* a) {\n  int x = ;\n  a[threadIdx.x] = 1;\n  float y = (;\n  a[1] = y;\n}\n"
    for name in ("one.cu", "two.cu"):
        (tmp_path / name).write_text(bad)
    code, out, err = run(str(tmp_path))
    assert "CL900" not in out and len(err.splitlines()) == 1
    assert err.count("one.cu") == 1 and err.count("two.cu") == 1 and "2 files not fully parsed" in err
    doc = json.loads(run(str(tmp_path), "--format", "json")[1])
    assert doc["hidden"]["CL900"] >= 4 and not any(d["code"] == "CL900" for d in doc["diagnostics"])
    assert sum(d["code"] == "CL900" for d in json.loads(run(str(tmp_path), "--format", "json", "--show-limits")[1])
               ["diagnostics"]) == doc["hidden"]["CL900"]


def test_a_folder_walk_lints_the_kernels_of_a_header_a_cuda_file_includes(tmp_path):
    # `kern.h` defines the kernel, `main.cu` includes it and launches it: the kernel is linted, in
    # main.cu's unit; a header with no kernel, or one no CUDA file includes, is not linted
    (tmp_path / "kern.h").write_text("__global__ void scale(float* a, int n) {\n"
                                     "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  a[i] *= 2.0f;\n}\n")
    (tmp_path / "other.h").write_text("__global__ void lone(float* a) { a[threadIdx.x * 2] = 0.f; }\n")
    (tmp_path / "util.h").write_text("inline int twice(int x) { return 2 * x; }\n")
    (tmp_path / "main.cu").write_text('#include "kern.h"\n#include "util.h"\n'
                                      "void run(float* a, int n) { scale<<<(n + 255) / 256, 256>>>(a, n); }\n")
    code, out, _ = run(str(tmp_path))
    assert code == 1
    assert "kern.h:3:3: warning: CL202" in out
    assert "other.h" not in out and "util.h" not in out
