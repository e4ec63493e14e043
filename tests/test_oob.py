"""Out-of-bounds accesses as people write them, and what a user sees: each bug is found wherever the
program puts the thread that goes past the end, its fixed twin is clean, and where the program
leaves a size or the grid open the finding states its condition instead of quoting a value
cudalint tried."""
import re

from cudalint.lint import Config, lint_paths


def lint(tmp_path, src, **cfg):
    path = tmp_path / "k.cu"
    path.write_text(src)
    return lint_paths([str(path)], Config(**cfg)).diagnostics


def ranges(diags):
    return [d for d in diags if d.code in ("CL201", "CL202", "CL203") and d.severity in ("warning", "error")]


GRID_STRIDE = """
__global__ void bump(int* v, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i %s n; i += blockDim.x * gridDim.x)
    v[i] += 1;
}
int main() {
  int n = %d;
  int* v;
  cudaMalloc(&v, n * sizeof(int));
  bump<<<64, 256>>>(v, n);
}
"""


def test_an_off_by_one_bound_is_found_in_a_block_in_the_middle_of_a_fixed_grid(tmp_path):
    # 64 x 256 threads, n = 1000: the thread at i == n is thread 232 of block 3, neither a corner
    # nor the middle of the grid
    got = ranges(lint(tmp_path, GRID_STRIDE % ("<=", 1000)))
    assert [(d.line, d.code, d.severity) for d in got] == [(4, "CL201", "error")]
    assert "1000 > 999" in got[0].message and "block" not in got[0].message.split("at ")[0]


def test_the_fixed_bound_is_clean(tmp_path):
    assert ranges(lint(tmp_path, GRID_STRIDE % ("<", 1000))) == []


def test_a_size_read_from_the_command_line_is_not_quoted(tmp_path):
    src = GRID_STRIDE.replace("int n = %d;", "int n = atoi(argv[1]);").replace("int main()", "int main(int c, char** argv)")
    got = ranges(lint(tmp_path, src % "<="))
    assert len(got) == 1 and got[0].message == "index of `v[i]` reaches past its end, out of `v` (n * 4 bytes allocated)"


GRAPH = """
#include <cstdio>
#include <cstdlib>
__global__ void degrees(const int* offsets, int* degree, int nodes) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  %s degree[v] = offsets[v + 1] - offsets[v];
}
int main(int argc, char** argv) {
  FILE* f = fopen(argv[1], "rb");
  int nodes;
  fread(&nodes, sizeof(int), 1, f);
  int threads = atoi(argv[2]), blocks = atoi(argv[3]);
  int *d_offsets, *d_degree;
  cudaMalloc(&d_offsets, (nodes + 1) * sizeof(int));
  cudaMalloc(&d_degree, nodes * sizeof(int));
  degrees<<<blocks, threads>>>(d_offsets, d_degree, nodes);
}
"""


def test_a_grid_from_the_command_line_with_no_guard_states_its_condition(tmp_path):
    got = ranges(lint(tmp_path, GRAPH % ""))
    assert {(d.line, d.array) for d in got} == {(6, "degree"), (6, "offsets")}
    for d in got:
        assert d.severity == "warning"
        assert "grows with the launch (`blocks` × `threads`)" in d.message
        assert "whenever the launch has more threads than that" in d.message
        assert not re.search(r"\d{3,}", d.message)      # no thread, block or size cudalint tried


def test_a_grid_from_the_command_line_under_a_guard_is_clean(tmp_path):
    assert ranges(lint(tmp_path, GRAPH % "if (v < nodes)")) == []


def test_a_grid_rounded_up_from_the_allocation_is_left_to_the_tail_guard_rule(tmp_path):
    # the grid is computed from the size the allocation holds: threads past it are the rounded-up
    # grid's (CL202, with its `% block` condition), not a launch unrelated to the data
    src = GRAPH.replace("degrees<<<blocks, threads>>>", "degrees<<<(nodes + 255) / 256, 256>>>")
    got = ranges(lint(tmp_path, src % ""))
    assert got and {d.code for d in got} == {"CL202"}
    assert all("whenever nodes % 256 != 0" in d.message for d in got)


def test_a_load_and_store_of_one_element_say_its_index_once(tmp_path):
    got = [d for d in lint(tmp_path, GRID_STRIDE % ("<=", 1000)) if d.code == "CL201"]
    assert len(got) == 1


MULTIPLE = """
__global__ void norm(float* out, const float* inp, const float* weight, int B, int T, int C) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  int c = idx %% C;
  %s out[idx] = inp[idx] * weight[c];
}
int main() {
  int B = 8, T = 1024, C = 768;
  float *out, *inp, *weight;
  cudaMalloc(&out, B * T * C * sizeof(float));
  cudaMalloc(&inp, B * T * C * sizeof(float));
  cudaMalloc(&weight, C * sizeof(float));
  norm<<<%s, 256>>>(out, inp, weight, B, T, C);
}
"""


def test_no_guard_under_a_rounded_grid_at_a_multiple_is_an_info_not_a_warning(tmp_path):
    # the program's sizes make B * T * C a multiple of 256: no value it runs goes past, so no
    # warning; the info says what alone keeps the kernel inside
    diags = lint(tmp_path, MULTIPLE % ("", "(B * T * C + 255) / 256"))
    assert ranges(diags) == []
    info = [d for d in diags if d.code == "CL202"]
    assert {d.array for d in info} == {"out", "inp"}          # `weight[idx % C]` wraps round: inside anyway
    assert all(d.severity == "info" for d in info)
    assert "stays inside only because 8 * 1024 * 768 = 6291456 is a multiple of 256" in info[0].message
    assert "add `if (idx < 8 * 1024 * 768)`" in info[0].message


def test_a_guarded_tail_or_a_grid_that_does_not_round_up_says_nothing(tmp_path):
    assert [d for d in lint(tmp_path, MULTIPLE % ("if (idx < B * T * C)", "(B * T * C + 255) / 256"))
            if d.code == "CL202"] == []
    # `B * T * C / 256` drops a partial block rather than adding one: no thread would pass a size
    assert [d for d in lint(tmp_path, MULTIPLE % ("", "B * T * C / 256")) if d.code == "CL202"] == []


PADDED = """
#include <cstdlib>
__global__ void clear_offsets(int* offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n) offsets[i] = 0;
}
int main(int argc, char** argv) {
  int n = atoi(argv[1]);
  int* offsets;
  cudaMalloc(&offsets, %s * sizeof(int));
  clear_offsets<<<(n + 255) / 256, 256>>>(offsets, n);
}
"""


def test_threads_past_the_size_inside_the_allocation_are_no_finding(tmp_path):
    # `i <= n` over n + 1 allocated elements: thread n writes the last one
    assert ranges(lint(tmp_path, PADDED % "(n + 1)")) == []


def test_threads_past_the_size_and_the_allocation_are(tmp_path):
    # thread n exists whenever n is no multiple of 256: the condition, not an error for every n
    got = ranges(lint(tmp_path, PADDED % "n"))
    assert [(d.code, d.severity) for d in got] == [("CL202", "warning")]
    assert "whenever n % 256 != 0" in got[0].message


def test_a_grid_that_adds_a_block_even_at_multiples_runs_past_for_every_size(tmp_path):
    src = PADDED.replace("(n + 255) / 256", "n / 256 + 1") % "n"
    got = ranges(lint(tmp_path, src))
    cl202 = [d for d in got if d.code == "CL202"]
    assert cl202 and cl202[0].severity == "error"
    assert "runs past n for every n: the grid adds threads past it even where it is a multiple" in cl202[0].message


def test_a_grid_stride_loop_is_bounded_by_its_condition_not_by_the_grid(tmp_path):
    """The grid is sized for n / 4 (another kernel of the pair handles four elements a thread);
    this one strides by the whole grid up to n: every access is inside."""
    diags = lint(tmp_path, """
#define LOOP(i, n) for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); i += blockDim.x * gridDim.x)
__global__ void scale(const int N, const float s, float* x, const unsigned char* mask) {
  LOOP(i, N) { x[i] *= s * mask[i]; }
}
void run(float* x, const unsigned char* m, int total) {
  scale<<<(total / 4 + 511) / 512, 512>>>(total, 2.f, x, m);
}
""")
    assert ranges(diags) == []


def test_one_block_shaped_by_the_data_rounds_nothing_up(tmp_path):
    diags = lint(tmp_path, """
__global__ void ptrs(float** out, float* base, long ne12, long ne13, long stride) {
  long i13 = blockIdx.x * blockDim.x + threadIdx.x;
  long i12 = blockIdx.y * blockDim.y + threadIdx.y;
  if (i13 >= ne13 || i12 >= ne12) return;
  out[i12 + i13 * ne12] = base + i12 * stride + i13 * stride * ne12;
}
void run(float** out, float* base, long ne12, long ne13, long stride) {
  dim3 block(ne13, ne12);
  ptrs<<<1, block>>>(out, base, ne12, ne13, stride);
}
""")
    assert ranges(diags) == []


RANGES = """
__global__ void k(const int* off, const int* list, const int* tri, float* x, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  %s
}
void run(const int* off, const int* list, const int* tri, float* x, int* out, int n) {
  k<<<(n + 255) / 256, 256>>>(off, list, tri, x, out, n);
}
"""


def test_the_first_element_of_a_range_whose_length_the_kernel_never_reads_is_found(tmp_path):
    # `end` is read and dropped: a vertex with no neighbours reads the next one's first, and past
    # the list at the last vertex; the message says which range and why, with no figure
    got = ranges(lint(tmp_path, RANGES % "int beg = off[i]; int end = off[i + 1]; out[i] = list[beg];"))
    assert [(d.line, d.code, d.severity) for d in got] == [(5, "CL201", "warning")]
    assert "`off[i]`..`off[i + 1]`" in got[0].message and "not empty" in got[0].message
    # a range start read from a worklist's vertex is a range too
    got = ranges(lint(tmp_path, RANGES % "int v = list[i]; out[i] = tri[off[v]] + off[v + 1];"))
    assert [d.code for d in got] == ["CL201"]


def test_a_range_whose_length_the_kernel_looks_at_is_no_finding(tmp_path):
    for body in (
        "int beg = off[i], end = off[i + 1]; if (beg < end) out[i] = list[beg];",
        "int beg = off[i], end = off[i + 1]; if (beg == end) return; out[i] = list[beg];",
        "int s = 0; for (int j = off[i]; j < off[i + 1]; j++) s += list[j]; out[i] = s;",
        "int j = off[i], e = off[i + 1], s = 0; while (j < e) { s += list[j]; j++; } out[i] = s;",
        # the row's first element read apart from a loop over the rest (a diagonal stored first):
        # the kernel reads the row's length, and relies on rows that are never empty
        "int s = list[off[i]]; for (int j = off[i] + 1; j < off[i + 1]; j++) s += list[j]; out[i] = s;",
        # two fields of one record side by side are no range
        "int a = tri[3 * i], b = tri[3 * i + 1]; x[i] = x[a] + x[b];",
        "int a = tri[2 * i], b = tri[2 * i + 1]; out[i] = list[a];",
        # eight node ids of an element, as a mesh keeps them: no range
        "const int* nodes = off + 8 * i; int a = nodes[0], b = nodes[1]; out[i] = list[a] + list[b];",
    ):
        assert ranges(lint(tmp_path, RANGES % body)) == [], body


QUANT = """
__global__ void matvec(const float* vec, const int* mat, float* mul, int height, int width) {
  int h = 8 * blockIdx.x;
  int w = 64 * blockIdx.y + threadIdx.x;
  __shared__ float v[64];
  v[threadIdx.x] = vec[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  int i = width * h + w;
  float res = 0.0f;
  for (int k = 0; k < 64; ++k)
    res += (float)mat[i + (k / 8) * width] * v[k];
  atomicAdd(&mul[w], res);
}
void run(const float* vec, const int* mat, float* mul, int height, int width) {
  matvec<<<dim3((height + 7) / 8, (width + 63) / 64), 64>>>(vec, mat, mul, height, width);
}
"""


def test_the_tail_guard_named_is_on_the_coordinate_not_on_a_position_in_the_matrix(tmp_path):
    """`i = width * h + w` counts rows too: `if (i < width)` would stop every row but the first. The
    guard the finding names is on `w`, the coordinate the rounded grid runs past, also for the
    atomic's `&mul[w]`."""
    found = [d for d in ranges(lint(tmp_path, QUANT)) if d.code == "CL202"]
    assert {d.array for d in found} == {"mat", "mul"}
    assert all("add `if (w < width)`" in d.message for d in found), [d.message for d in found]


COLUMN_SUM = """
__global__ void col_sum(const float* in, float* out, int rows, int n) {
  __shared__ float tile[8][129];
  int col = blockIdx.x * 8 + threadIdx.x;
  float s = 0.f;
  for (int r = threadIdx.y; r < rows; r += 128)
    if (col < n) s += in[r * n + col];
  tile[threadIdx.x][threadIdx.y] = s;
  __syncthreads();
  if (threadIdx.y == 0) {
    float t = 0.f;
    for (int k = 0; k < 128; k++) t += tile[threadIdx.x][k];
    tile[threadIdx.x][128] = t;
  }
  __syncthreads();
  if (threadIdx.x < %s) {
    int pos = blockIdx.x * 8 + threadIdx.x;
    out[pos] = tile[threadIdx.x][128];
  }
}
void launch(const float* in, float* out, int rows, int n) {
  col_sum<<<dim3((n - 1) / 8 + 1), dim3(8, 128)>>>(in, out, rows, n);
}
"""


def test_a_guard_by_a_number_of_the_block_is_no_tail_guard(tmp_path):
    """`if (threadIdx.x < 8)` in blocks 8 wide bounds nothing: the last block still stores past n
    whenever n % 8 != 0. A guard by a size of the kernel's own (`threadIdx.x < n - blockIdx.x * 8`)
    is the tail guard, and the store is clean."""
    found = [d for d in ranges(lint(tmp_path, COLUMN_SUM % "8")) if d.code == "CL202"]
    assert [d.array for d in found] == ["out"] and "whenever n % 8 != 0" in found[0].message
    assert [d for d in ranges(lint(tmp_path, COLUMN_SUM % "n - blockIdx.x * 8")) if d.code == "CL202"] == []
