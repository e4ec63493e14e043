"""Which launch a kernel is analysed with: a block size the file does not give (a host parameter),
launches through a function pointer, and sizes fixed by the branch a launch is in. Each test states
the host code and what a user sees: findings, notes and the `[assumes: ...]` text."""
import subprocess
import sys

from cudalint.lint import Config, lint_paths


def lint(tmp_path, src, **params):
    path = tmp_path / "k.cu"
    path.write_text(src)
    diags = lint_paths([str(path)], Config(params=params, show_limits=True)).diagnostics
    return sorted((d.line, d.code) for d in diags), diags


# ---- a block size that is a host parameter -----------------------------------------------------

COPY_2D = """__global__ void k(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int j = blockIdx.y * blockDim.y + threadIdx.y;
  if (i < n && j < n) out[i * n + j] = in[i * n + j];
}
void launch(float *o, const float *in, int n, int bs) {
  dim3 grid((n + bs - 1) / bs, (n + bs - 1) / bs);
  dim3 block(bs, bs);
  k<<<grid, block>>>(o, in, n);
}
"""


def test_unknown_block_edge_is_assumed_not_taken_as_a_problem_size(tmp_path):
    got, diags = lint(tmp_path, COPY_2D)
    # analysed (no "block of 1000000 threads" note), and the column walk is found
    assert not any(d.code == "CL901" for d in diags)
    assert got == [(4, "CL102"), (4, "CL102")]          # x and y swapped: one finding per access
    text = "; ".join(diags[0].assumptions)
    # the edge takes the values that make the usual block shapes (bs x bs: 16 x 16 and 32 x 32)
    assert "block size `bs` not given: checked with bs = 16, 32, 8: blockDim (16, 16, 1), (32, 32, 1), (8, 8, 1)" in text
    assert "--param bs=VALUE" in text
    assert "bs=1000" not in text


def test_param_for_the_block_edge_wins(tmp_path):
    _, diags = lint(tmp_path, COPY_2D, bs=32)
    assert diags and all("block size" not in a for d in diags for a in d.assumptions)
    # a 32-wide warp now spans 32 rows of `out`: 32 sectors per store
    store = next(d for d in diags if d.code == "CL102" and d.access == "store")
    assert store.metrics["sectors_per_request"] == 32 and store.subsumes == ["CL101"]
    assert "more sectors/request than the ideal 4" in store.message      # n is not given


def test_param_making_the_block_too_large_is_a_named_note(tmp_path):
    got, diags = lint(tmp_path, COPY_2D, bs=64)
    assert got == [(1, "CL901")]
    assert "block of 4096 threads" in diags[0].message


def test_known_block_dimension_is_kept(tmp_path):
    # x is fixed at 32 by the launch; only y comes from the unknown `rows`
    _, diags = lint(tmp_path, """__global__ void k(float *out, int n) {
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 64 + threadIdx.y;
  out[y * n + x] = 1.0f;
}
void launch(float *o, int n, int rows) {
  k<<<dim3(n / 32, n / 64), dim3(32, rows)>>>(o, n);
}
""")
    # with 4, 8, 16 or 32 rows (64 would be 2048 threads), rows of every 64 are skipped: a stride
    # mismatch for every block the launch can have
    assert [d.code for d in diags] == ["CL301"]
    assert any("block size `rows` not given: checked with rows = 8, 16, 32, 4: blockDim (32, 8, 1), (32, 16, 1), "
               "(32, 32, 1), (32, 4, 1)" in a for a in diags[0].assumptions)


def test_one_dimensional_launch_with_unknown_size_uses_the_1d_shape(tmp_path):
    _, diags = lint(tmp_path, """__global__ void k(float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[2 * i] = 0.0f;
}
void launch(float *o, int n, int threads) {
  k<<<(n + threads - 1) / threads, threads>>>(o, n);
}
""")
    assert [d.code for d in diags] == ["CL101", "CL202"]
    assert any("block size `threads` not given: checked with threads = 256, 128, 1024" in a
               for a in diags[0].assumptions)
    # no guard, and nothing makes n a multiple of the block the program picks: the condition says so
    assert diags[1].severity == "warning" and "whenever n % threads != 0" in diags[1].message


def test_launch_inside_a_block_size_branch_uses_that_size(tmp_path):
    # cuda-samples matrixMul: `if (block_size == 16) MatrixMulCUDA<16><<<grid, threads>>>`
    _, diags = lint(tmp_path, """template <int BS> __global__ void k(float *out, int n) {
  __shared__ float tile[BS][BS];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[(blockIdx.y * BS + threadIdx.y) * n + blockIdx.x * BS + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}
void launch(float *o, int n, int block_size) {
  dim3 threads(block_size, block_size);
  dim3 grid(n / block_size, n / block_size);
  if (block_size == 16) {
    k<16><<<grid, threads>>>(o, n);
  } else {
    k<32><<<grid, threads>>>(o, n);
  }
}
""", n=1024)
    # the 16x16 tile read down a column: a warp (16 x 2 threads) hits 4 banks, 8-way (the 32-wide
    # tile of the other branch would be 32-way); no block-size assumption, since the branch fixes it
    bank = [d for d in diags if d.code == "CL401"]
    assert len(bank) == 1 and "8-way" in bank[0].message
    assert not any("unknown" in a for d in diags for a in d.assumptions)


# ---- launches through a function pointer -------------------------------------------------------

TRANSPOSE_DRIVER = """#define TILE 32
#define ROWS 16
__global__ void copy(float *o, const float *in, int w) {
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) o[x + (y + i) * w] = in[x + (y + i) * w];
}
__global__ void naive(float *o, const float *in, int w) {
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int i = 0; i < TILE; i += ROWS) o[(y + i) + x * w] = in[x + (y + i) * w];
}
void host(float *o, const float *in) {
  void (*kernel)(float *, const float *, int);
  dim3 grid(32, 32), threads(TILE, ROWS);
  for (int k = 0; k < 2; k++) {
%s
    kernel<<<grid, threads>>>(o, in, 1024);
  }
}
"""


def test_pointer_set_in_a_switch_launches_each_kernel_it_names(tmp_path):
    got, diags = lint(tmp_path, TRANSPOSE_DRIVER % """    switch (k) {
      case 0: kernel = &copy; break;
      case 1: kernel = naive; break;
    }""", w=1024)
    # With the 32x16 launch applied, the 16-row step matches the block: no CL301 on either
    # kernel (the assumed 32x8 block made one per access); the naive transpose's column
    # write remains.
    assert got == [(9, "CL102")]
    assert "launch unknown" not in "; ".join(a for d in diags for a in d.assumptions)


def test_pointer_from_an_array_of_kernels(tmp_path):
    got, _ = lint(tmp_path, TRANSPOSE_DRIVER.replace("void (*kernel)(float *, const float *, int);",
                                                     "void (*kernels[])(float *, const float *, int) = {&copy, &naive};")
                  .replace("kernel<<<", "kernels[k]<<<") % "", w=1024)
    assert got == [(9, "CL102")]


def test_pointer_from_a_conditional_expression(tmp_path):
    got, _ = lint(tmp_path, TRANSPOSE_DRIVER % "    kernel = k == 0 ? &copy : &naive;", w=1024)
    assert got == [(9, "CL102")]


def test_untraced_pointer_is_applied_to_unlaunched_kernels_with_the_same_arity(tmp_path):
    # the pointer comes from the caller: every kernel of the file with three parameters and no
    # launch of its own gets the launch, and the assumption says so
    _, diags = lint(tmp_path, TRANSPOSE_DRIVER.replace("void host(float *o, const float *in) {\n"
                                                       "  void (*kernel)(float *, const float *, int);",
                                                       "void host(float *o, const float *in,\n"
                                                       "          void (*kernel)(float *, const float *, int)) {")
                    % "", w=1024)
    assert sorted((d.line, d.code) for d in diags) == [(9, "CL102")]
    assert all(any("launch through the function pointer `kernel` at line 16: its configuration assumed "
                   "for this kernel" in a for a in d.assumptions) for d in diags)


def test_untraced_pointer_skips_kernels_with_their_own_launch_or_another_arity(tmp_path):
    _, diags = lint(tmp_path, """__global__ void mine(float *o, int a) {
  int i = blockIdx.x * 128 + threadIdx.x; if (i < a) o[i] = 0.0f;
}
__global__ void other(float *o, int a, int b) {
  int i = blockIdx.x * 64 + threadIdx.x; if (i < a) o[i] = 0.0f;
}
__global__ void third(float *o) {
  o[blockIdx.x * 64 + threadIdx.x] = 0.0f;
}
void host(float *o, void (*fn)(float *, int, int)) {
  mine<<<16, 128>>>(o, 2048);
  fn<<<16, 64>>>(o, 1024, 1);
}
""")
    # `mine` keeps its own 128-thread launch and `other` takes the pointer's 64 threads: both
    # tile the array exactly. `third` has one parameter, so the three-argument launch is not
    # its own: its launch is not found, and its own index (`blockIdx.x * 64 + threadIdx.x`) says
    # 64 threads a block, which tile the array exactly too.
    assert diags == []


def test_cli_reports_the_pointer_launch(tmp_path):
    path = tmp_path / "k.cu"
    path.write_text(TRANSPOSE_DRIVER % "    kernel = (k == 0) ? &copy : &naive;")
    p = subprocess.run([sys.executable, "-m", "cudalint", "--format", "concise", "--param", "w=1024", str(path)],
                       capture_output=True, text=True)
    assert p.returncode == 1
    assert "CL301" not in p.stdout
    assert f"{path}:9:" in p.stdout and "CL102" in p.stdout


def test_annotation_or_define_gives_the_block_edge(tmp_path):
    # `// cudalint: param` above the kernel, or -D for a macro edge, is a known size: no assumption
    _, diags = lint(tmp_path, "// cudalint: param bs=32\n" + COPY_2D)
    assert diags and not any("block size" in a for d in diags for a in d.assumptions)
    path = tmp_path / "m.cu"
    path.write_text(COPY_2D.replace("dim3 block(bs, bs);", "dim3 block(EDGE, EDGE);"))
    for extra, assumed in (([], "block size `EDGE` not given: checked with EDGE = 16, 32"), (["-D", "EDGE=32"], None)):
        p = subprocess.run([sys.executable, "-m", "cudalint", "--format", "full", *extra, str(path)],
                           capture_output=True, text=True)       # full states the kernel's assumptions
        assert p.returncode == 1 and "CL102" in p.stdout
        assert (assumed in p.stdout) if assumed else ("block size" not in p.stdout)


# ---- sizes the launch passes as constants --------------------------------------------------------

VECADD = """#define N 4096
__global__ void k(float *c, const float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] = a[i];
}
void run(float *c, const float *a) {
  const int threads = 256;
  k<<<(N + threads - 1) / threads, threads>>>(c, a, ARG);
}
"""


def test_constant_kernel_argument_is_the_parameter_value(tmp_path):
    # the grid covers exactly the 4096 elements the launch passes: no excess thread, no assumption
    got, diags = lint(tmp_path, VECADD.replace("ARG", "N"))
    # no warning; the info that only the size's divisibility keeps the unguarded access inside
    assert [d for d in diags if d.severity != "info"] == []
    assert all(d.code == "CL202" and "n = 4096 is a multiple of 256" in d.message for d in diags)
    got, diags = lint(tmp_path, VECADD.replace("ARG", "4000"))
    assert got == [(4, "CL202"), (4, "CL202")]
    assert "past n = 4000" in diags[0].message and not diags[0].assumptions


def test_given_param_wins_over_the_launch_argument(tmp_path):
    got, diags = lint(tmp_path, VECADD.replace("ARG", "4000"), n=4096)
    assert [d for d in diags if d.severity != "info"] == []
    assert all(d.code == "CL202" and "n = 4096 is a multiple of 256" in d.message for d in diags)


# ---- which launch reaches which kernel: translation units ------------------------------------

def test_a_kernel_compiled_apart_takes_the_launch_of_the_unit_that_declares_it(tmp_path):
    # separate compilation: kern.cu defines the kernel, main.cu declares it through a header and
    # launches it with 128 threads, which overrun the 64-element tile
    (tmp_path / "kern.h").write_text("__global__ void fill(float* out);\n")
    (tmp_path / "kern.cu").write_text(
        "__global__ void fill(float* out) {\n"
        "  __shared__ float s[64];\n"
        "  s[threadIdx.x] = 1.0f;\n"
        "  __syncthreads();\n"
        "  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];\n"
        "}\n")
    (tmp_path / "main.cu").write_text('#include "kern.h"\nvoid run(float* o) { fill<<<8, 128>>>(o); }\n')
    diags = lint_paths([str(tmp_path)], Config()).diagnostics
    assert {(d.path.rsplit("/", 1)[-1], d.line, d.code) for d in diags} == {
        ("kern.cu", 3, "CL201"), ("kern.cu", 5, "CL201")}
    # with a second definition of `fill` elsewhere, the declaration no longer says which one it is
    (tmp_path / "other.cu").write_text(
        "__global__ void fill(float* out) { out[threadIdx.x] = 0.0f; }\n"
        "void go(float* o) { fill<<<1, 32>>>(o); }\n")
    diags = lint_paths([str(tmp_path)], Config()).diagnostics
    assert not [d for d in diags if d.severity != "info"]


def test_a_header_kernel_is_read_with_the_macros_of_its_includer(tmp_path):
    # the runner sets the tile size before including the kernel, as Rodinia does
    (tmp_path / "kernel.cuh").write_text(
        "__global__ void tile_copy(float* out, const float* in) {\n"
        "  __shared__ float t[TILE];\n"
        "  t[threadIdx.x] = in[blockIdx.x * TILE + threadIdx.x];\n"
        "  __syncthreads();\n"
        "  out[blockIdx.x * TILE + threadIdx.x] = t[TILE - 1 - threadIdx.x];\n"
        "}\n")
    (tmp_path / "runner.cu").write_text(
        '#define TILE 128\n#include "kernel.cuh"\nvoid run(float* o, const float* i) { tile_copy<<<64, TILE>>>(o, i); }\n')
    result = lint_paths([str(tmp_path)], Config(debug=True))
    assert not result.diagnostics
    (table,) = result.tables
    assert table.arrays["t"].dims == (128,) and table.launch.origin.endswith("runner.cu:3")


def test_a_null_argument_turns_the_kernels_null_test_off(tmp_path):
    # llm.c's fused classifier: `if (probs != NULL)` guards a store the only launch never runs
    src = """__global__ void k(float *out, float *probs) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1.0f;
  if (probs != NULL) probs[i * 32] = 2.0f;
}
void run(float *o, float *p) { k<<<64, 256>>>(o, ARG); }
"""
    assert lint(tmp_path, src.replace("ARG", "NULL"))[0] == []
    assert lint(tmp_path, src.replace("ARG", "p"))[0] == [(4, "CL101")]


# ---- a kernel instance handed to a launch helper ------------------------------------------------

HELPER = """#pragma once
#include <cstdint>
template <typename K, typename... Types>
inline void linear_kernel(K kernel, uint32_t n, Types... args) {
  kernel<<<(n + 127) / 128, 128>>>(n, args...);
}
"""
FILL = """#include "helper.h"
template <uint32_t STRIDE>
__global__ void fill(uint32_t n, float* __restrict__ out) {
  uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  for (uint32_t k = 0; k < STRIDE; ++k) out[i * STRIDE + k] = 1.0f;
}
void run(float* out, uint32_t n) {
  const uint32_t dims = %s;
  linear_kernel(fill<dims>, n, out);
}
"""


def test_an_instance_passed_to_a_launch_helper_is_read_where_it_is_passed_and_in_its_own_unit(tmp_path):
    """`linear_kernel(fill<dims>, n, out)` with `const uint32_t dims = 1;` before the call: the
    kernel is `fill<1>` (coalesced). Another file's `fill`, a kernel of its own passed as
    `fill<dims>` with dims = 3, is not this one's instance, and the other way round."""
    (tmp_path / "helper.h").write_text(HELPER)
    (tmp_path / "a.cu").write_text(FILL % "1")
    (tmp_path / "b.cu").write_text(FILL % "3")
    diags = lint_paths([str(tmp_path)], Config()).diagnostics
    found = sorted((d.path.rsplit("/", 1)[-1], d.code) for d in diags if d.severity != "info")
    assert found == [("b.cu", "CL101")]
    (d,) = [d for d in diags if d.code == "CL101"]
    assert "lanes 12 B apart" in d.message and "launched at" not in " ".join(d.assumptions)


def test_a_launch_in_a_macro_the_file_undefines_after_its_uses_is_read(tmp_path):
    # `#define NORM(H) ... k<H><<<grid, block>>>(...)`, used, then `#undef NORM`: the use is the
    # launch (block 128, template value 4), not a kernel with no launch tried at cudalint's shapes
    path = tmp_path / "k.cu"
    path.write_text("""template <int H>
__global__ void k(float* data, int size) {
  int lane = threadIdx.x % 32, head = (blockIdx.x * blockDim.x + threadIdx.x) / 32 * H;
  for (int h = 0; h < H; h++) data[(head + h) * size + lane] *= 2.0f;
}
#define NORM(H_)                                  \\
    dim3 grid(total / (H_ * 4));                  \\
    dim3 block(128);                              \\
    k<H_><<<grid, block>>>(data, size);
void run(float* data, int total, int size) {
  if (total % 16 == 0) { NORM(4); }
}
#undef NORM
""")
    (t,) = lint_paths([str(path)], Config()).tables
    assert [str(b) for b in t.launch.block] == ["128", "1", "1"]


def test_a_block_chosen_among_numbers_is_not_read_as_a_clamp(tmp_path):
    # `w <= 4 ? 4 : w <= 8 ? 8 : ... : 32` picks one of five widths as the data goes: no one of them
    # is the launch's shape (a clamp `d < 1024 ? d : 1024` is read at 1024)
    path = tmp_path / "k.cu"
    src = """__global__ void k(float* m, int width) { m[threadIdx.y * width + threadIdx.x] = 0.f; }
void run(float* m, int width, int d) {
  int tx = %s;
  k<<<1, dim3(tx, 1)>>>(m, width);
}
"""
    path.write_text(src % "width <= 4 ? 4 : width <= 8 ? 8 : width <= 12 ? 12 : width <= 16 ? 16 : 32")
    (t,) = lint_paths([str(path)], Config()).tables
    assert t.launch.block is None or str(t.launch.block[0]) != "4"
    path.write_text(src % "d < 1024 ? d : 1024")
    (t,) = lint_paths([str(path)], Config()).tables
    assert [str(b) for b in t.launch.block] == ["1024", "1", "1"]


# ---- template values the program instantiates its launcher with --------------------------------

INSTANCES = """template <int W, bool PACKED>
__global__ void k(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  if (PACKED) out[i * W] = in[i];
  else out[i] = in[i];
}
template <int W, bool PACKED>
void launch(const float *in, float *out, int n) { k<W, PACKED><<<(n + 127) / 128, 128>>>(in, out, n); }
void run(const float *in, float *out, int n, int w) {
  switch (w) {
    case 2: launch<2, false>(in, out, n); break;
    case 4: launch<4, false>(in, out, n); break;
    case 8: launch<8, false>(in, out, n); break;
    case 16: launch<16, false>(in, out, n); break;
    case 32: launch<32, true>(in, out, n); break;
  }
}
"""


def test_every_value_of_every_template_parameter_is_run_when_their_products_are_too_many(tmp_path):
    # 5 widths x 2 flags: more combinations than are run; the packed store that only `true` takes is
    # still reached, and said to need it
    found, diags = lint(tmp_path, INSTANCES)
    assert (5, "CL101") in found
    (d,) = [d for d in diags if d.line == 5 and d.code == "CL101"]
    assert "PACKED = 1" in d.message


def test_the_values_one_call_gives_go_together():
    # `run(1, 48)` and `run(2, 64)`: two runs, not four (no call passes 2 with 48); a name no call
    # gives (a launcher's template value) is combined with them
    from cudalint.lint import program_combinations
    from cudalint.model.table import LaunchConfig
    lc = LaunchConfig(None, None, None, "test")
    lc.values = {"batch": (1, 2), "seq": (48, 64)}
    lc.value_calls = [{"batch": 1, "seq": 48}, {"batch": 2, "seq": 64}, {"batch": 1, "seq": 48}]
    assert sorted(map(lambda c: sorted(c.items()), program_combinations(lc, {}))) == \
        [[("batch", 1), ("seq", 48)], [("batch", 2), ("seq", 64)]]
    lc.values["PACKED"] = (0, 1)
    combos = program_combinations(lc, {})
    assert len(combos) == 4 and {(c["batch"], c["seq"]) for c in combos} == {(1, 48), (2, 64)}
    assert {c["PACKED"] for c in combos} == {0, 1}


def test_a_constant_expression_passed_to_the_kernel_is_its_value(tmp_path):
    """`k<<<64, 256>>>(o, 1 << 24)`: the size is 2^24 at every launch (an argument list is split at
    its commas, not at the shift's `<`), and the finding holds at that value, not an open size."""
    from cudalint.source.types import split_top_level
    assert split_top_level("o, 1 << 24, n >> 2, p->x") == ["o", "1 << 24", "n >> 2", "p->x"]
    assert split_top_level("std::map<int, std::vector<int>>, a < b") == ["std::map<int, std::vector<int>>", "a < b"]
    found, diags = lint(tmp_path, """__global__ void k(float *o, int size) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[(i * 512) & (size - 1)] = 1.f;
}
void run(float *o) { k<<<64, 256>>>(o, 1 << 24); }
""")
    assert (3, "CL101") in found
    (d,) = [d for d in diags if d.code == "CL101"]
    assert "size" not in " ".join(d.assumptions)


def test_a_launch_macro_that_calls_another_launch_macro_is_a_launch(tmp_path):
    """`CUDA_LAUNCH(fn, grid, block, ...)` defined as `CUDA_LAUNCH_SMEM(fn, grid, block, 0, ...)`,
    which writes the `<<<>>>`: the launch is found through both, and the kernel runs on the (16, 16)
    block the host gives, not on a block cudalint tries (which made the figure 32 sectors, ideal 4)."""
    found, diags = lint(tmp_path, """#define CUDA_LAUNCH_SMEM(fn, blks, thrds, smem, ...) \\
    do { fn<<<blks, thrds, smem, 0>>>(__VA_ARGS__); } while (false)
#define CUDA_LAUNCH(fn, blks, thrds, ...) CUDA_LAUNCH_SMEM(fn, blks, thrds, 0, __VA_ARGS__)
__global__ void extract(unsigned *desc, const float *in, unsigned n) {
  unsigned f = blockDim.x * blockIdx.x + threadIdx.x;
  if (f < n)
    for (unsigned i = threadIdx.y; i < 16; i += blockDim.y)
      atomicAdd(&desc[f * 8 + i / 2], (unsigned)in[f] << i);
}
void run(unsigned *d, const float *in, unsigned n) {
  dim3 threads(16, 16);
  dim3 blocks((n + 15) / 16, 1);
  CUDA_LAUNCH(extract, blocks, threads, d, in, n);
}
""")
    (d,) = [d for d in diags if d.code == "CL101"]
    assert "16 sectors/request, ideal 2" in d.message
    assert not any("launch not found" in a for a in d.assumptions)


def test_a_block_declared_in_a_loop_body_is_the_launch_s_whatever_the_body_assigns_after(tmp_path):
    """A launch in a loop over pyramid levels: `dim3 threads(16, 16)` is declared in the body before
    it, and `threads = dim3(256, 1)` after it (for another kernel). The variable is new each
    iteration, so the launch's block is (16, 16); the later assignment made it unknown, and the
    kernel ran on a block cudalint chose (a 32-way conflict instead of 8-way)."""
    found, diags = lint(tmp_path, """constexpr int TX = 16;
constexpr int TY = 16;
__global__ void k(float *o, const float *in) {
  __shared__ float data[TX * TY];
  unsigned idx = threadIdx.x * blockDim.x + threadIdx.y;
  data[idx] = in[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  o[blockIdx.x] = data[0];
}
void run(float *o, const float *in, const unsigned *n, int levels) {
  for (int i = 0; i < levels; i++) {
    dim3 threads(TX, TY);
    dim3 blocks((n[i] + 15) / 16, 1);
    k<<<blocks, threads>>>(o, in);
    threads = dim3(256, 1);
  }
}
""")
    (d,) = [d for d in diags if d.code == "CL401"]
    assert "8-way" in d.message and not any("block size" in a for a in d.assumptions)


def test_a_flag_every_call_of_the_wrapper_passes_false_guards_code_that_never_runs(tmp_path):
    """`decode_launcher(..., bool clip)` passes its `clip` to the kernel, and its one caller passes
    `false`: the clip arm (records written field by field) never runs, so it makes no finding; the
    same wrapper called with `true` does."""
    src = """__global__ void decode(const float4 *in, int n, bool clip, float *out) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= n) return;
  float4 b = in[g];
  if (clip) {
    out[g * 4 + 0] = fminf(b.x, 1.f);
    out[g * 4 + 1] = fminf(b.y, 1.f);
  } else {
    reinterpret_cast<float4 *>(out)[g] = b;
  }
}
void decode_launcher(const float4 *in, int n, bool clip, float *out) {
  decode<<<(n + 127) / 128, 128>>>(in, n, clip, out);
}
void forward(const float4 *in, int n, float *out) { decode_launcher(in, n, FLAG, out); }
"""
    found, _ = lint(tmp_path, src.replace("FLAG", "false"))
    assert "CL101" not in {c for _, c in found}
    found, _ = lint(tmp_path, src.replace("FLAG", "true"))
    assert (6, "CL101") in found


def test_a_size_the_host_makes_a_multiple_of_the_block_leaves_no_partial_block(tmp_path):
    """`n = m * c` launched in the `case 32:` of `switch (c)` with 32 threads: n is a multiple of the
    block, the grid `(n + 31) / 32` has no partial last block, so the barrier in the grid-stride loop
    is reached by every thread of every block (no CL502); a launch whose size has no such factor
    keeps the finding."""
    src = """template <unsigned B>
__global__ void reduce_fixed(int n, const float *in, float *out) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    __shared__ float cache[B];
    cache[threadIdx.x] = in[i];
    __syncthreads();
    if (threadIdx.x == 0) out[i / B] = cache[0] + cache[B - 1];
    __syncthreads();
  }
}
void launch(int m, int c, const float *in, float *out) {
  const int n = SIZE;
  switch (c) {
  case 32: reduce_fixed<32><<<(n + 31) / 32, 32>>>(n, in, out); break;
  default: break;
  }
}
"""
    found, _ = lint(tmp_path, src.replace("SIZE", "m * c"))
    assert "CL502" not in {c for _, c in found}
    found, _ = lint(tmp_path, src.replace("SIZE", "m + c"))
    assert (6, "CL502") in found


def test_a_block_written_with_warp_size_in_host_code_is_that_block(tmp_path):
    # `dim3 threads(warpSize, 8)` on the host: 32 x 8, as on every device; the rows the y lanes take
    # are `ld` apart, so each warp's load spans four rows
    got, diags = lint(tmp_path, """__global__ void k(const float* in, float* out, int ld, int n) {
  int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
  if (c < n && r < n) out[r * ld + c] = in[c * ld + r];
}
void run(const float* in, float* out, int ld, int n) {
  dim3 threads(warpSize, 8);
  dim3 blocks((n + threads.x - 1) / threads.x, (n + threads.y - 1) / threads.y);
  k<<<blocks, threads>>>(in, out, ld, n);
}
""")
    [load] = [d for d in diags if d.code in ("CL101", "CL102") and d.access == "load"]
    assert "blockDim" not in " ".join(load.assumptions)
    assert not any("block size" in a for d in diags for a in d.assumptions)
