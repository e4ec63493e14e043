"""Context files: a file linted alone gets the launches and macros of the project files that
include or launch it, so a header has the same findings alone, with its directory, or through
pre-commit; those files are read, not reported."""
import os
import shutil
import subprocess
import sys

import pytest

from cudalint.lint import Config, context_paths, lint_paths

from conftest import SAMPLES

KERNEL = """\
__global__ void tile_copy(float* out, const float* in) {
  __shared__ float t[TILE];
  t[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * TILE + threadIdx.x] = t[TILE - 1 - threadIdx.x];
}
"""
RUNNER = '#define TILE 64\n#include "kernels/copy.cuh"\nvoid run(float* o, const float* i) { tile_copy<<<64, 128>>>(o, i); }\n'


@pytest.fixture
def project(tmp_path):
    (tmp_path / ".git").mkdir()             # a work tree: the project the files belong to
    (tmp_path / "kernels").mkdir()
    (tmp_path / "kernels" / "copy.cuh").write_text(KERNEL)
    (tmp_path / "main.cu").write_text(RUNNER)
    (tmp_path / "other.cu").write_text("__global__ void unrelated(float* a) { a[threadIdx.x] = 0.0f; }\n")
    return tmp_path


def found(*paths):
    return sorted((os.path.basename(d.path), d.line, d.code) for d in lint_paths([str(p) for p in paths],
                                                                                 Config()).diagnostics)


def test_a_header_alone_has_the_findings_it_has_with_its_project(project):
    # the runner sets TILE = 64 and launches 128 threads: they overrun the 64-element tile
    alone = found(project / "kernels" / "copy.cuh")
    assert alone == found(project) == found(project / "kernels")
    assert ("copy.cuh", 3, "CL201") in alone


def test_context_files_are_read_not_reported(project):
    (project / "main.cu").write_text(RUNNER + "__global__ void own(float* a) { a[threadIdx.x * 32] = 0.0f; }\n"
                                              "void go(float* a) { own<<<1, 32>>>(a); }\n")
    assert {p for p, _, _ in found(project / "kernels" / "copy.cuh")} == {"copy.cuh"}
    # only the files that include or launch the linted one are read
    assert [os.path.basename(p) for p in context_paths([str(project / "kernels" / "copy.cuh")], Config())] == \
        ["main.cu"]


def test_a_kernel_compiled_apart_gets_the_launch_of_its_caller(project):
    (project / "k.cu").write_text("__global__ void fill(float* out) {\n  __shared__ float s[64];\n"
                                  "  s[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = s[63 - threadIdx.x];\n}\n")
    (project / "host.cu").write_text("__global__ void fill(float* out);\nvoid run(float* o) { fill<<<1, 128>>>(o); }\n")
    assert ("k.cu", 3, "CL201") in found(project / "k.cu")


def test_outside_a_project_nothing_else_is_read(tmp_path):
    (tmp_path / "copy.cuh").write_text(KERNEL.replace("TILE", "64"))
    (tmp_path / "main.cu").write_text('#include "copy.cuh"\nvoid run(float* o, const float* i) { tile_copy<<<64, 128>>>(o, i); }\n')
    assert context_paths([str(tmp_path / "copy.cuh")], Config()) == []


def test_pre_commit_of_the_header_alone_fails_like_the_whole_tree(project):
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    shutil.rmtree(project / ".git")
    subprocess.run(["git", "init", "-q", str(project)], check=True)
    cmd = [sys.executable, "-m", "cudalint", "--force-exclude", "kernels/copy.cuh"]   # the hook's own command
    p = subprocess.run(cmd, cwd=project, capture_output=True, text=True)
    assert p.returncode == 1 and "CL201" in p.stdout


def test_each_unit_reads_a_shared_header_with_its_own_definitions(tmp_path):
    # `rowwise.cu` defines ENABLE_BF16 before including common.h, `plain.cu` does not: in a run
    # over both, whichever is read first, rowwise's kernel moves 2-byte elements (lanes 1536 B
    # apart), as when it is linted alone
    (tmp_path / "common.h").write_text("#include <cuda_bf16.h>\n#if defined(ENABLE_BF16)\n"
                                       "typedef __nv_bfloat16 floatX;\n#else\ntypedef float floatX;\n#endif\n")
    (tmp_path / "a_plain.cu").write_text('#include "common.h"\n__global__ void scale(floatX* x, int n) {\n'
                                         "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                         "  if (i < n) x[i] = x[i] * (floatX)2;\n}\n")
    (tmp_path / "rowwise.cu").write_text('#define ENABLE_BF16\n#include "common.h"\n'
                                         "__global__ void rowwise(floatX* out, const floatX* inp, int N, int C) {\n"
                                         "  int idx = blockIdx.x * blockDim.x + threadIdx.x;\n"
                                         "  if (idx < N) for (int i = 0; i < C; i++) out[idx * C + i] = inp[idx * C + i];\n}\n"
                                         "int main() { rowwise<<<(8192 + 255) / 256, 256>>>(0, 0, 8192, 768); }\n")
    together = [d.message for d in lint_paths([str(tmp_path)], Config()).diagnostics if d.code == "CL101"]
    alone = [d.message for d in lint_paths([str(tmp_path / "rowwise.cu")], Config()).diagnostics if d.code == "CL101"]
    assert together and together == alone
    assert all("1536 B apart" in m for m in together)


def test_a_cuda_file_included_in_angle_brackets_beside_its_runner_is_read_in_its_unit(tmp_path):
    # `#include <copy_kernel.cu>`, built with `-I.` in the runner's folder: the kernel is the runner's
    # unit's (its TILE and its launch), whatever the order the files are named in, and alone
    (tmp_path / ".git").mkdir()
    (tmp_path / "app").mkdir()
    (tmp_path / "app" / "copy_kernel.cu").write_text(KERNEL)
    (tmp_path / "app" / "main.cu").write_text(RUNNER.replace('"kernels/copy.cuh"', "<copy_kernel.cu>"))
    kernel, runner = tmp_path / "app" / "copy_kernel.cu", tmp_path / "app" / "main.cu"
    got = found(kernel, runner)
    assert got == found(runner, kernel) == found(kernel) == found(tmp_path)
    assert ("copy_kernel.cu", 3, "CL201") in got           # TILE = 64 from the runner, 128 threads
