"""C++ host files as context: a kernel launched through a wrapper in a .cu file
(`void cuda_copy(dim3 Gr, dim3 Bl, ...) { _copy<<<Gr, Bl>>>(...); }`) is configured by the calls of
that wrapper in the project's .cc/.cpp files. Those files are read for their calls only: never
linted, never reported on, and a broken one does not stop the run."""
import json
import os
import subprocess
import sys
from pathlib import Path

from cudalint.index import ir
from cudalint.lint import Config, collect_paths, context_paths, lint_paths, read_project
from cudalint.model.host import fold, substitute
from cudalint.model.launch import resolve_launch
from cudalint.source.project import Project

KERNELS = """// launched through wrappers whose grid and block are their parameters
__global__ void copy_rows(float* out, const float* in, int rows, int cols) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  int col = blockIdx.y * blockDim.y + threadIdx.y;
  if (row < rows && col < cols)
    out[row * cols + col] = in[row * cols + col];
}

void cudaF_copy_rows(dim3 Gr, dim3 Bl, float* out, const float* in, int rows, int cols) {
  copy_rows<<<Gr, Bl>>>(out, in, rows, cols);
}
"""

# the library's inline C++ layer over the .cu wrappers (kaldi's cu-kernels.h)
LAYER = """#ifndef KERNELS_H_
#define KERNELS_H_
void cudaF_copy_rows(dim3 Gr, dim3 Bl, float* out, const float* in, int rows, int cols);
inline void cuda_copy_rows(dim3 Gr, dim3 Bl, float* out, const float* in, int rows, int cols) {
  cudaF_copy_rows(Gr, Bl, out, in, rows, cols);
}
#endif
"""

CALLER = """#include "kernels.h"
#define CU2DBLOCK 16

static inline int n_blocks(int size, int block_size) {
  return size / block_size + ((size % block_size == 0) ? 0 : 1);
}

class Matrix {
 public:
  void CopyRows(const Matrix& src);
  int NumRows() const;
  int NumCols() const;
  float* data_;
};

void Matrix::CopyRows(const Matrix& src) {
  dim3 dimBlock(CU2DBLOCK, CU2DBLOCK);
  dim3 dimGrid(n_blocks(NumCols(), CU2DBLOCK), n_blocks(NumRows(), CU2DBLOCK));
  cuda_copy_rows(dimGrid, dimBlock, data_, src.data_, NumRows(), NumCols());
}
"""


def write(root, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)


def launch_of(root, files: dict, monkeypatch, kernel: str):
    """The launch a kernel is analysed with, the project linted from its root (`cudalint .`)."""
    write(root, files)
    monkeypatch.chdir(root)
    cfg = Config()
    hosts: list = []
    paths = collect_paths(["."], cfg, host=hosts)
    sources, read = read_project(paths, cfg, [*context_paths(paths, cfg), *hosts], errors=[])
    project = Project(sources, read)
    fn = next(f for s in sources for f in s.kernels if f.name == kernel)
    return resolve_launch(fn, project.sites_for(fn), {}, project)


ROOT = Path(__file__).resolve().parent.parent


def cli(root, *args):
    """`cudalint ARGS` run in `root`, as a user runs it there (this checkout's cudalint)."""
    return subprocess.run([sys.executable, "-m", "cudalint", *args], cwd=root, capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=300)


def test_the_callers_block_configures_the_kernel_and_its_finding(tmp_path):
    write(tmp_path, {"src/kernels.cu": KERNELS, "src/kernels.h": LAYER, "src/matrix.cc": CALLER})
    got = json.loads(cli(tmp_path, "--format", "json", "--exit-zero", ".").stdout)
    found = {(d["path"], d["line"], d["code"]) for d in got["diagnostics"] if d["severity"] != "info"}
    # a 16 x 16 block: `row` from threadIdx.x strides `cols` in x, half a warp per row
    assert ("./src/kernels.cu", 6, "CL102") in found
    # (cols is a size the program does not give: the count is in the metrics, not the message)
    assert any(d["metrics"]["sectors_per_request"] == 16 for d in got["diagnostics"] if d["code"] == "CL102")
    assert not any(d["path"].endswith((".cc", ".h")) for d in got["diagnostics"])
    assert [f["path"] for f in got["files"]] == ["./src/kernels.cu"]
    # a file named alone is read in its project (found by its `.git`), with the project's C++ files
    (tmp_path / ".git").mkdir()
    shown = cli(tmp_path, "explain", "src/kernels.cu", "--kernel", "copy_rows").stdout
    assert "block (16, 16, 1)" in shown and "matrix.cc" in shown


def test_without_the_cc_file_the_launch_is_not_the_callers(tmp_path, monkeypatch):
    alone = launch_of(tmp_path, {"kernels.cu": KERNELS}, monkeypatch, "copy_rows")[0]
    assert alone.block is None or [fold(b) for b in alone.block] != [16, 16, 1]


def test_block_resolved_and_grid_computed_from_open_sizes(tmp_path, monkeypatch):
    cfg, _, _ = launch_of(tmp_path, {"kernels.cu": KERNELS, "kernels.h": LAYER, "matrix.cc": CALLER},
                          monkeypatch, "copy_rows")
    assert [fold(b) for b in cfg.block] == [16, 16, 1]
    # `n_blocks(NumCols(), 16)`: evaluated, over a size the program does not give (open, not a number)
    assert fold(cfg.grid[0]) is None and cfg.grid[2] == ir.Num(1)
    assert any(s.kind == "unknown" for s in ir.symbols(cfg.grid[0]))
    assert "matrix.cc" in cfg.origin


def test_a_cc_file_with_a_syntax_error_or_binary_content_does_not_stop_the_run(tmp_path):
    broken = CALLER.replace("void Matrix::CopyRows", "void Matrix::CopyRows(((( {{ ]] \nvoid Matrix::Other")
    write(tmp_path, {"kernels.cu": KERNELS, "kernels.h": LAYER, "a.cc": broken,
                     "b.cpp": b"\x7fELF\x00\x00cudaF_copy_rows(\x00\xff", "c.cc": CALLER,
                     "d.cxx": "__global__ void not_linted(float* x) { x[threadIdx.x * 1024] = 0; }\n"})
    r = cli(tmp_path, "--format", "json", ".")
    assert r.returncode == 1, r.stderr        # findings in kernels.cu; nothing unreadable
    got = json.loads(r.stdout)
    assert [f["path"] for f in got["files"]] == ["./kernels.cu"]
    assert {d["path"] for d in got["diagnostics"]} == {"./kernels.cu"}
    assert any(d["code"] == "CL102" for d in got["diagnostics"])
    assert "Traceback" not in r.stderr


def test_only_files_that_name_a_wrapper_are_read(tmp_path, monkeypatch):
    other = "int unrelated(int n) { return n + 1; }\n"
    write(tmp_path, {"kernels.cu": KERNELS, "kernels.h": LAYER, "matrix.cc": CALLER, "other.cc": other})
    monkeypatch.chdir(tmp_path)
    cfg = Config()
    hosts: list = []
    paths = collect_paths(["."], cfg, host=hosts)
    assert sorted(hosts) == ["./kernels.h", "./matrix.cc", "./other.cc"]
    _, read = read_project(paths, cfg, hosts, errors=[])
    assert {r.path.split("/")[-1] for r in read} >= {"matrix.cc", "kernels.h"}
    assert not any(r.path.endswith("other.cc") for r in read)


def test_extend_host_include_adds_files(tmp_path, monkeypatch):
    caller = CALLER.replace('#include "kernels.h"', LAYER)
    files = {"kernels.cu": KERNELS, "matrix.inc": caller}
    cfg, _, _ = launch_of(tmp_path, files, monkeypatch, "copy_rows")
    assert cfg.block is None or [fold(b) for b in cfg.block] != [16, 16, 1]
    files[".cudalint.toml"] = 'extend-host-include = ["*.inc"]\n'     # also the project's root
    write(tmp_path, files)
    r = cli(tmp_path, "explain", "kernels.cu", "--kernel", "copy_rows")
    assert "block (16, 16, 1)" in r.stdout, r.stdout + r.stderr


def test_an_out_parameter_helper_gives_the_block(tmp_path, monkeypatch):
    helper = """static void sizes(int rows, int cols, dim3* grid, dim3* block) {
  block->x = 32;
  block->y = 8;
  grid->x = (cols + 31) / 32;
  grid->y = (rows + 7) / 8;
}
void CopyRows(float* out, const float* in, int rows, int cols) {
  dim3 dimGrid, dimBlock;
  sizes(rows, cols, &dimGrid, &dimBlock);
  cudaF_copy_rows(dimGrid, dimBlock, out, in, rows, cols);
}
"""
    cfg, _, _ = launch_of(tmp_path, {"kernels.cu": KERNELS, "kernels.h": LAYER,
                                     "m.cc": '#include "kernels.h"\n' + helper}, monkeypatch, "copy_rows")
    assert [fold(b) for b in cfg.block] == [32, 8, 1]
    # the kernel's own `cols` and `rows`, passed on by the wrapper: a grid computed from them
    assert fold(substitute(cfg.grid[0], {ir.Sym("cols", "param"): ir.Num(1000)})) == 32
    assert fold(substitute(cfg.grid[1], {ir.Sym("rows", "param"): ir.Num(100)})) == 13


def test_an_out_parameter_helper_over_an_open_size_leaves_the_block_open(tmp_path, monkeypatch):
    # kaldi's GetBlockSizesForSimpleMatrixOperation: the block's shape depends on the matrix's size
    helper = """static void sizes(int rows, int cols, dim3* grid, dim3* block) {
  int col_blocksize = 64, row_blocksize = 4;
  while (col_blocksize > 1 && cols + cols / 2 <= col_blocksize) {
    col_blocksize /= 2;
    row_blocksize *= 2;
  }
  block->x = col_blocksize;
  block->y = row_blocksize;
  grid->x = (cols + col_blocksize - 1) / col_blocksize;
}
void CopyRows(float* out, const float* in, int rows, int cols) {
  dim3 dimGrid, dimBlock;
  sizes(rows, cols, &dimGrid, &dimBlock);
  cudaF_copy_rows(dimGrid, dimBlock, out, in, rows, cols);
}
"""
    cfg, _, _ = launch_of(tmp_path, {"kernels.cu": KERNELS, "kernels.h": LAYER,
                                     "m.cc": '#include "kernels.h"\n' + helper}, monkeypatch, "copy_rows")
    # not dim3's (1, 1, 1), not (64, 4): nothing the program fixes
    assert cfg.block is None or any(fold(b) is None for b in cfg.block)


def test_a_call_that_cannot_reach_the_launch_does_not_configure_it(tmp_path, monkeypatch):
    cu = """template <int BLOCK> __global__ void tile(float* out, int n) {
  __shared__ float t[BLOCK][BLOCK];
  t[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.y * BLOCK + threadIdx.x] = t[threadIdx.x][threadIdx.y];
}
void run(float* out, int n, int block_size) {
  dim3 threads(block_size, block_size);
  if (block_size == 16) {
    tile<16><<<1, threads>>>(out, n);
  } else {
    tile<32><<<1, threads>>>(out, n);
  }
}
"""
    cc = "void run(float* out, int n, int block_size);\nvoid go(float* out) { run(out, 1024, 32); }\n"
    cfg, template, _ = launch_of(tmp_path, {"k.cu": cu, "main.cpp": cc}, monkeypatch, "tile")
    # the call passes 32: it reaches `tile<32>`, never `tile<16>` with a 32 x 32 block
    block = [fold(b) for b in cfg.block] if cfg.block is not None else None
    assert block != [32, 32, 1] or str(template.get("BLOCK")) == "32"


STRIDED = """__global__ void scale(float* x, int n, int stride) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i * stride] *= 2.f;
}
void cuda_scale(dim3 Gr, dim3 Bl, float* x, int n, int stride) {
  scale<<<Gr, Bl>>>(x, n, stride);
}
"""


def test_a_value_swapped_in_a_branch_is_open_after_it(tmp_path, monkeypatch):
    # kaldi's AddDiagVecMat: `M_col_stride = 1; if (trans) std::swap(M_row_stride, M_col_stride);`
    cc = """#include <utility>
void cuda_scale(dim3 Gr, dim3 Bl, float* x, int n, int stride);
void Scale(float* x, int n, int ld, bool trans) {
  int row_stride = ld, col_stride = 1;
  if (trans)
    std::swap(row_stride, col_stride);
  cuda_scale(dim3((n + 255) / 256), dim3(256), x, n, col_stride);
}
"""
    cfg, _, _ = launch_of(tmp_path, {"k.cu": STRIDED, "s.cc": cc}, monkeypatch, "scale")
    assert [fold(b) for b in cfg.block] == [256, 1, 1]
    assert "stride" not in cfg.values          # 1 or `ld`: not 1 at every call


def test_another_classs_method_of_the_same_name_is_not_a_call(tmp_path, monkeypatch):
    cu = STRIDED + """class Gpu {
 public:
  void Run(float* x, int n, int stride);
  void Twice(float* x, int n) { Run(x, n, 2); }
};
void Gpu::Run(float* x, int n, int stride) { scale<<<(n + 127) / 128, 128>>>(x, n, stride); }
"""
    cc = """class Cpu { public: void Run(float* x, int n, int stride); };
void Go(Cpu& c, float* x) { c.Run(x, 100, 7); }
void cuda_scale(dim3 Gr, dim3 Bl, float* x, int n, int stride);
void Also(float* x) { cuda_scale(dim3(1), dim3(32), x, 32, 1); }
"""
    cfg, _, _ = launch_of(tmp_path, {"k.cu": cu, "c.cc": cc}, monkeypatch, "scale")
    # `Run(x, n, 2)` in Gpu's own member, 1 from the C++ caller of the wrapper; `c.Run(x, 100, 7)` is
    # Cpu's Run, not Gpu's
    assert set(cfg.values.get("stride", ())) == {1, 2}


def test_an_angled_include_of_the_projects_own_folder_is_read(tmp_path, monkeypatch):
    """`#include <mylib/core/macros.hpp>` from a file under `cpp/include/mylib/ops/`: a header-only
    library includes its own headers by the path under its include root (the build's `-I
    cpp/include`); the header is the project's, and the kernel declared through its macro is read."""
    from cudalint.lint import Config, lint_paths
    root = tmp_path / "cpp" / "include" / "mylib"
    (root / "core").mkdir(parents=True)
    (root / "ops").mkdir()
    (root / "core" / "macros.hpp").write_text("#pragma once\n#define MYLIB_KERNEL static __global__ void\n")
    (root / "ops" / "scale.cuh").write_text(
        "#include <mylib/core/macros.hpp>\n"
        "MYLIB_KERNEL scale(const float* in, float* out, int rows, int cols) {\n"
        "  int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  int col = blockIdx.y;\n"
        "  if (row < rows && col < cols) out[row * cols + col] = 2.0f * in[row * cols + col];\n"
        "}\n"
        "inline void run(const float* in, float* out, int rows, int cols) {\n"
        "  scale<<<dim3((rows + 127) / 128, cols), 128>>>(in, out, rows, cols);\n"
        "}\n")
    monkeypatch.chdir(tmp_path)
    found = lint_paths(["."], Config()).diagnostics
    assert {(d.code, d.line) for d in found if d.severity == "warning"} == {("CL101", 5)}
