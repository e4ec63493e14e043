"""The model reads the whole kernel: structs in memory, file-scope device variables, casts to
references and typedefs, braced initializers, loop-carried updates of every kind, library
barriers, headers a project's build finds with -I. Each test states the kernel and what a user
sees: the finding, or the access the model holds and simulates."""
from cudalint.lint import Config, lint_paths


def _run(tmp_path, text, name="k.cu"):
    path = tmp_path / name
    path.write_text(text)
    return lint_paths([str(path)], Config(show_limits=True))


def _codes(result):
    return sorted((d.code, d.line) for d in result.diagnostics if d.code != "CL900")


def _accesses(result):
    (t,) = result.tables
    return t, [(a.array.name, a.kind, str(a.index), a.width, a.member_offset) for a in t.accesses]


AOS = """struct Body { float x, y, z; float mass; double energy; };
__global__ void k(const Body* __restrict__ p, Body* q, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = p[i].mass + (p + i)->y;
    q[i].energy = 1.0;
  }
}
// cudalint: param n=1048576
void run(const Body* p, Body* q, float* out, int n) { k<<<(n + 255) / 256, 256>>>(p, q, out, n); }
"""


def test_array_of_structs_members_are_accesses_of_their_bytes(tmp_path):
    r = _run(tmp_path, AOS)
    t, acc = _accesses(r)
    assert t.arrays["p"].elem_size == 24 and not t.arrays["p"].size_assumed
    # p[i].mass: 4 bytes at offset 12 of each 24-byte element; (p + i)->y at offset 4; q[i].energy at 16
    assert ("p", "load", "blockIdx.x * blockDim.x + threadIdx.x", 4, 12) in acc
    assert ("p", "load", "blockIdx.x * blockDim.x + threadIdx.x", 4, 4) in acc
    assert ("q", "store", "blockIdx.x * blockDim.x + threadIdx.x", 8, 16) in acc
    found = {d.code for d in r.diagnostics if d.line in (5, 6)}
    assert "CL101" in found                 # a warp's 32 floats spread over 24 * 32 bytes


def test_struct_member_of_shared_array_conflicts_on_banks(tmp_path):
    text = """struct P { float v; float w; };
__global__ void k(float* out) {
  __shared__ P s[64];
  s[threadIdx.x].v = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x].w;
}
void run(float* out) { k<<<1, 64>>>(out); }
"""
    r = _run(tmp_path, text)
    conflicts = [d for d in r.diagnostics if d.code == "CL401"]
    assert {d.line for d in conflicts} == {4, 6}
    assert all("2-way" in d.message for d in conflicts)      # 8-byte elements: two lanes per bank


def test_file_scope_shared_array_races_like_a_local_one(tmp_path):
    text = """__shared__ float buf[256];
__global__ void k(float* out) {
  buf[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = buf[(threadIdx.x + 1) % 256];
}
void run(float* out) { k<<<1, 256>>>(out); }
"""
    r = _run(tmp_path, text)
    assert ("CL501", 4) in _codes(r)
    t, _ = _accesses(r)
    assert t.arrays["buf"].space == "shared" and t.arrays["buf"].dims == (256,)


def test_constant_struct_member_and_device_array(tmp_path):
    text = """struct Params { int stride; float scale[4]; };
__constant__ Params prm;
__device__ float table[1024];
__global__ void k(float* out) {
  out[threadIdx.x] = prm.scale[threadIdx.x % 4] * table[threadIdx.x];
}
void run(float* out) { k<<<1, 128>>>(out); }
"""
    r = _run(tmp_path, text)
    t, acc = _accesses(r)
    assert ("prm.scale", "load", "threadIdx.x % 4", 4, 0) in acc
    assert t.arrays["prm.scale"].space == "constant"
    assert ("table", "load", "threadIdx.x", 4, 0) in acc
    assert not [d for d in r.diagnostics if "is not a known array" in d.message]


def test_reference_casts_typedef_casts_and_brace_initializers_are_read(tmp_path):
    text = """typedef float real;
__global__ void k(const float* a, float* b, int n) {
  int i = threadIdx.x;
  float4 v = reinterpret_cast<const float4&>(a[4 * i]);
  real w = (real)a[i];
  float2 u = {a[2 * i], a[2 * i + 1]};
  reinterpret_cast<float4(&)[1]>(b[4 * i])[0] = v;
  b[i] += w + u.x;
}
void run(const float* a, float* b, int n) { k<<<1, 32>>>(a, b, n); }
"""
    r = _run(tmp_path, text)
    _, acc = _accesses(r)
    assert ("a", "load", "4 * threadIdx.x", 16, 0) in acc
    assert ("a", "load", "threadIdx.x", 4, 0) in acc
    assert ("a", "load", "2 * threadIdx.x + 1", 4, 0) in acc
    assert ("b", "store", "4 * threadIdx.x", 16, 0) in acc
    assert not [d for d in r.diagnostics if "cannot read" in d.message]


def test_loop_carried_modulo_and_xor_updates_are_followed(tmp_path):
    text = """__global__ void k(unsigned* m, int move) {
  unsigned idx = threadIdx.x;
  for (int i = 0; i < 100; i++) {
    m[idx] += i;
    idx += move;
    idx %= 4096;
  }
  int j = threadIdx.x;
  for (int t = 0; t < 8; t++) { m[j] = t; j ^= 1; }
}
void run(unsigned* m) { k<<<1, 32>>>(m, 32); }
"""
    r = _run(tmp_path, text)
    assert not [d for d in r.diagnostics if "changes across iterations" in d.message or "not simulated" in d.message]
    _, acc = _accesses(r)
    assert ("m", "store", "i == 0 ? threadIdx.x : (threadIdx.x + i * move) % 4096", 4, 0) in acc


def test_a_comment_after_else_keeps_the_statement(tmp_path):
    text = """__global__ void k(int x, float* a) {
  if (x) a[threadIdx.x] = 1;
  else // the other half
    a[threadIdx.x + 32] = 2;
}
void run(float* a) { k<<<1, 32>>>(1, a); }
"""
    _, acc = _accesses(_run(tmp_path, text))
    assert ("a", "store", "threadIdx.x + 32", 4, 0) in acc


def test_library_barriers_order_shared_accesses(tmp_path):
    text = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename T, int N> struct BlockReduce { struct TempStorage { T x[N]; };
  __device__ BlockReduce(TempStorage&); __device__ T Sum(T); };
__global__ void k(float* out) {
  __shared__ float slot[64];
  using Reduce = BlockReduce<float, 64>;
  __shared__ Reduce::TempStorage temp;
  cg::thread_block block = cg::this_thread_block();
  slot[threadIdx.x] = out[threadIdx.x];
  float s = Reduce(temp).Sum(out[threadIdx.x]);
  out[threadIdx.x] = slot[63 - threadIdx.x] + s;
  cg::synchronize(block);
  slot[threadIdx.x] = 0;
}
void run(float* out) { k<<<1, 64>>>(out); }
"""
    r = _run(tmp_path, text)
    (t,) = r.tables
    assert [b.text.split("(")[0] for b in t.barriers if b.is_block] == ["Reduce", "cg::synchronize"]
    # the reads after each barrier see the stores before it: no race is reported
    assert not [d for d in r.diagnostics if d.code == "CL501"]
    # the same kernel with a call that is no block collective races
    r = _run(tmp_path, text.replace("Reduce(temp).Sum", "reduce_sum").replace("cg::synchronize(block)", "(void)0")
             .replace("namespace cg", "__device__ float reduce_sum(float);\nnamespace cg"))
    assert [d for d in r.diagnostics if d.code == "CL501"]


def test_a_kernel_local_constant_loaded_from_memory_stays_local(tmp_path):
    text = """__global__ void k1(const int* ids, float* out) {
  const int v = ids[blockIdx.x];
  out[threadIdx.x] = v;
}
__global__ void k2(float* out, int n) {
  int iex = threadIdx.x + v;
  iex += 32;
  out[iex] = 1.f;
}
void run(const int* ids, float* out) { k1<<<1, 32>>>(ids, out); k2<<<1, 32>>>(out, 4); }
"""
    r = _run(tmp_path, text)
    assert not [d for d in r.diagnostics if d.code == "CL902"]
    k2 = next(t for t in r.tables if t.kernel == "k2")
    assert [a.array.name for a in k2.accesses] == ["out"]      # no load of k1's `ids` in k2


def test_class_template_static_member_through_an_alias(tmp_path):
    text = """template <class E> struct alignas(16) Packed {
  static constexpr const int size = sizeof(int4) / sizeof(E);
  E payload[size];
};
typedef Packed<float> f128;
__global__ void k(float* out, int n) {
  for (int i = threadIdx.x * f128::size; i < n; i += blockDim.x * f128::size)
    out[i] = 0.f;
}
void run(float* out, int n) { k<<<1, 256>>>(out, n); }
"""
    r = _run(tmp_path, text)
    assert not [d for d in r.diagnostics if "not simulated" in d.message or "changes across" in d.message]
    _, acc = _accesses(r)
    assert acc[0][2] == "threadIdx.x * 4 + iter(i) * (blockDim.x * 4)"     # f128::size is 16 / 4


def test_headers_found_where_the_project_build_finds_them(tmp_path):
    (tmp_path / "include" / "proj").mkdir(parents=True)
    (tmp_path / "include" / "proj" / "loop.hpp").write_text(
        "#define KERNEL_LOOP(i, n) for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < (n); "
        "i += blockDim.x * gridDim.x)\n")
    (tmp_path / "src").mkdir()
    r = _run(tmp_path / "src", """#include "proj/loop.hpp"
__global__ void k(const float* a, float* b, int n) {
  KERNEL_LOOP(i, n) { b[i] = a[2 * i]; }
}
void run(const float* a, float* b, int n) { k<<<8, 256>>>(a, b, n); }
""")
    _, acc = _accesses(r)
    assert {x[0] for x in acc} == {"a", "b"}
    assert not [d for d in r.diagnostics if "not found" in d.message]


def test_constant_mask_reached_through_an_open_size_is_no_error(tmp_path):
    text = """#define MAX_MASK 121
__constant__ float M[MAX_MASK];
__global__ void k(const float* in, float* out, int mask_width) {
  float s = 0.f;
  for (int j = 0; j < mask_width; j++) s += in[threadIdx.x + j] * M[j];
  out[threadIdx.x] = s;
}
void run(const float* in, float* out, int w) { k<<<1, 32>>>(in, out, w); }
"""
    # nothing in the program says how wide the mask is: how far `j` reaches is not known
    assert not [d for d in _run(tmp_path, text).diagnostics if d.code == "CL201"]
    # given (the size a build uses), the mask's end is passed
    given = text.replace("__global__", "// cudalint: param mask_width=200\n__global__")
    assert [d.line for d in _run(tmp_path, given).diagnostics if d.code == "CL201"] == [6]


def _simulated(result):
    """(array, kind) of the accesses the model holds with an index it follows."""
    (t,) = result.tables
    return sorted({(a.array.name, a.kind) for a in t.accesses if not a.unresolved})


def test_a_cast_to_a_name_the_unit_does_not_define_is_read(tmp_path):
    # `real` comes from a header the build does not show: `(real)x` is still a cast, the
    # statement is read and its columns are those of the source
    r = _run(tmp_path, """__global__ void k(const float* a, float* b) {
  b[threadIdx.x] = (real)a[threadIdx.x * 32] + (real)(a[threadIdx.x]);
}
void run(const float* a, float* b) { k<<<1, 32>>>(a, b); }
""")
    assert not [d for d in r.diagnostics if "cannot read" in d.message]
    assert [(d.code, d.line, d.column) for d in r.diagnostics if d.code == "CL101"] == [("CL101", 2, 26)]


def test_a_statement_macro_and_a_line_splice_are_read(tmp_path):
    r = _run(tmp_path, """#define LOG(...) do {} while (0)
#define ADD(s) if (threadIdx.x < s) { t[threadIdx.x] += t[threadIdx.x + s]; }
__global__ void k(float* out) {
  __shared__ float t[64];
  t[threadIdx.x] = 1.f;
  __syncthreads();
  LOG("%d", 1);
  ADD(16);
  if (threadIdx.x == 0 && \\
      threadIdx.y == 0) out[blockIdx.x] = t[0];
}
void run(float* out) { k<<<1, 32>>>(out); }
""")
    assert not [d for d in r.diagnostics if "cannot read" in d.message]
    (t,) = r.tables
    assert {(a.array.name, a.kind, a.line) for a in t.accesses} >= {("t", "load", 8), ("t", "store", 8),
                                                                     ("out", "store", 10)}


def test_a_helper_writes_back_through_its_reference_parameters(tmp_path):
    r = _run(tmp_path, """__device__ void split(int &col, int &row, int i) { row = i / 32; col = i % 32; }
__global__ void k(const float* a, float* b) {
  int c, r;
  split(c, r, threadIdx.x);
  b[c * 32 + r] = a[threadIdx.x];
}
void run(const float* a, float* b) { k<<<1, 1024>>>(a, b); }
""")
    assert _simulated(r) == [("a", "load"), ("b", "store")]
    assert [(d.code, d.line) for d in r.diagnostics if d.code == "CL101"] == [("CL101", 5)]


def test_a_call_runs_the_overload_its_arguments_count(tmp_path):
    r = _run(tmp_path, """__device__ void put(float* p, float v) { p[0] = v; }
__device__ void put(float* p, float v, int stride) { p[threadIdx.x * stride] = v; }
__global__ void k(float* out) { put(out, 1.f, 8); }
void run(float* out) { k<<<1, 32>>>(out); }
""")
    (t,) = r.tables
    assert [str(a.index) for a in t.accesses] == ["threadIdx.x * 8"]


def test_a_counter_leaves_its_loop_at_its_bound(tmp_path):
    r = _run(tmp_path, """__global__ void k(const float* in, float* out, int n, int pre) {
  int head = 0;
  float s = 0.f;
  while (head < pre && head < n) { s += in[head * 32 + threadIdx.x]; ++head; }
  while (head < n) { s += in[head * 32 + threadIdx.x]; ++head; }
  out[threadIdx.x] = s;
}
void run(const float* in, float* out, int n, int pre) { k<<<1, 32>>>(in, out, n, pre); }
""")
    (t,) = r.tables
    second = [a for a in t.accesses if a.line == 5]
    assert second and not second[0].unresolved
    assert str(second[0].index) in ("(max(0, min(n, pre)) + iter(loop@5)) * 32 + threadIdx.x",
                                    "(max(0, min(pre, n)) + iter(loop@5)) * 32 + threadIdx.x")


def test_pointers_and_sizes_a_kernel_takes_in_a_struct(tmp_path):
    r = _run(tmp_path, """struct Args { const float* x; float* y; int n; };
struct View { float* data_; int ncols_; __device__ float* row(int r) { return &data_[r * ncols_]; } };
__global__ void k(Args p, View v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) p.y[i] = p.x[i] + v.row(blockIdx.x)[threadIdx.x];
}
void run(Args p, View v) { k<<<8, 256>>>(p, v); }
""")
    assert _simulated(r) == [("p.x", "load"), ("p.y", "store"), ("v.data_", "load")]
    (t,) = r.tables
    assert [a.index for a in t.accesses if a.array.name == "v.data_"][0].__class__.__name__ == "Bin"
    assert "v.ncols_" in str([a.index for a in t.accesses if a.array.name == "v.data_"][0])


def test_a_pointer_member_of_a_struct_in_memory(tmp_path):
    r = _run(tmp_path, """struct Item { float* data; int len; };
__constant__ Item items[16];
__global__ void k(Item* per_thread) {
  items[blockIdx.x].data[threadIdx.x] = 0.f;
  per_thread[threadIdx.x].data[0] = 1.f;
}
void run(Item* q) { k<<<16, 32>>>(q); }
""")
    (t,) = r.tables
    by_line = {a.line: a for a in t.accesses if a.kind == "store"}
    # one start for the whole block: followed; a start each thread loads: indirect
    assert not by_line[4].unresolved
    assert "loaded from memory" in by_line[5].unresolved


def test_an_element_of_a_register_object_is_a_local_access(tmp_path):
    r = _run(tmp_path, """struct Pack { float payload[4];
  __device__ float& operator[](int i) { return payload[i]; } };
__global__ void k(const float* a, float* b) {
  Pack v;
  for (int j = 0; j < 4; ++j) v[j] = a[threadIdx.x * 4 + j];
  b[threadIdx.x] = v[0] + v[3];
}
void run(const float* a, float* b) { k<<<1, 32>>>(a, b); }
""")
    (t,) = r.tables
    assert t.arrays["v.payload"].space == "local" and t.arrays["v.payload"].dims == (4,)
    assert sorted((a.kind, a.line) for a in t.accesses if a.array.name == "v.payload") == \
        [("load", 6), ("load", 6), ("store", 5)]


def test_stores_of_one_number_do_not_race(tmp_path):
    text = """__global__ void k(const int* a, int* out) {
  __shared__ unsigned int flag;
  if (threadIdx.x == 0) flag = 0;
  __syncthreads();
  if (a[threadIdx.x]) atomicExch(&flag, 1u); else flag = VALUE;
  __syncthreads();
  out[threadIdx.x] = flag;
}
void run(const int* a, int* out) { k<<<1, 64>>>(a, out); }
"""
    assert not [d for d in _run(tmp_path, text.replace("VALUE", "1")).diagnostics if d.code == "CL501"]
    assert [d.line for d in _run(tmp_path, text.replace("VALUE", "2")).diagnostics if d.code == "CL501"] == [5]


def test_a_post_increment_indexes_with_the_value_before_it(tmp_path):
    # `s[2 * t + k++]` twice: slots 2t and 2t + 1, in range; `++k` the second time would be 2t + 2
    text = """__global__ void k(const float *in, float *out) {
  __shared__ float s[512];
  int k = 0;
  s[threadIdx.x * 2 + k++] = in[threadIdx.x];
  s[threadIdx.x * 2 + k++] = 2.0f * in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[511 - threadIdx.x];
}
void run(const float *in, float *out) { k<<<1, 256>>>(in, out); }
"""
    r = _run(tmp_path, text)
    t, acc = _accesses(r)
    stores = [(a.array.name, str(a.index)) for a in t.accesses if a.kind == "store" and a.array.name == "s"]
    assert stores[0][1].endswith("* 2") and stores[-1][1].endswith("* 2 + 1"), stores
    assert "CL201" not in {c for c, _ in _codes(r)}
    r = _run(tmp_path, text.replace("k++] = 2.0f", "++k] = 2.0f"))
    assert ("CL201", 5) in _codes(r)


def test_every_step_of_a_for_update_is_followed(tmp_path):
    # `i++, in += 2`: the pointer moves two words each iteration, so the loop reads words 0..17
    text = """__device__ void absorb(float *s, const float *in) {
  for (int i = 0; i < 9; i++, in += 2) s[i] = in[0] + in[1];
}
__global__ void k(const float *data, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n) return;
  float s[9];
  absorb(s, data + t * 18);
  out[t] = s[0] + s[8];
}
void run(const float *d, float *o, int n) { k<<<(n + 255) / 256, 256>>>(d, o, n); }
"""
    r = _run(tmp_path, text)
    t, acc = _accesses(r)
    (load,) = [a for a in t.accesses if a.array.name == "data" and a.member_offset == 0 and "+ 1" not in str(a.index)]
    assert "2 * i" in str(load.index) or "i * 2" in str(load.index), str(load.index)
    assert "CL301" not in {c for c, _ in _codes(r)}


def test_a_struct_aligned_by_attribute_is_padded_to_its_alignment(tmp_path):
    # 60 bytes of members, `__attribute__((aligned(16)))`: 64 bytes an element, as `__align__(16)`
    text = """struct __attribute__((aligned(16))) Rec { float3 a, b, c, d; unsigned int e, f, g; };
__global__ void touch(Rec* recs, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) recs[i].a = make_float3(1.f, 2.f, 3.f);
}
void launch(Rec* r, int n) { touch<<<(n + 255) / 256, 256>>>(r, n); }
"""
    r = _run(tmp_path, text)
    t, _ = _accesses(r)
    assert t.arrays["recs"].elem_size == 64


def test_a_functional_cast_to_a_typedef_of_an_integer_is_its_operand(tmp_path):
    # `Index_t(8) * k`: eight ids per element, each lane 32 bytes on (it was a call not followed)
    res = _run(tmp_path, """typedef int Index_t;
__global__ void k(const Index_t* nodelist, const double* x, double* out, Index_t numElem) {
  Index_t e = blockDim.x * blockIdx.x + threadIdx.x;
  if (e >= numElem) return;
  const Index_t* nodes = nodelist + Index_t(8) * e;
  out[e] = x[nodes[0]] + x[nodes[7]];
}
void run(const Index_t* l, const double* x, double* out, Index_t n) { k<<<(n + 255) / 256, 256>>>(l, x, out, n); }
""")
    t, accs = _accesses(res)
    assert ("nodelist", "load", "8 * (blockDim.x * blockIdx.x + threadIdx.x)", 4, 0) in accs
    assert not any(d.code == "CL901" and "Index_t" in d.message for d in res.diagnostics)


def test_a_helpers_loop_counter_is_its_own_whatever_its_name(tmp_path):
    # the helper's `i` walks one row with the block's threads; the caller's `i` walks rows by block:
    # one name, two loops (the helper's read as the caller's made a false CL301, steps 756 vs 500)
    res = _run(tmp_path, """
__device__ float row_sum(const float *row, int length) {
  __shared__ float part[256];
  float v = 0.0f;
  for (int i = threadIdx.x; i < length; i += blockDim.x) v += row[i];
  part[threadIdx.x] = v;
  __syncthreads();
  float total = part[0];
  __syncthreads();
  return total;
}
__global__ void row_sums(const float *m, float *sums, int cols, int rows) {
  for (int i = blockIdx.x; i < rows; i += gridDim.x) {
    float s = row_sum(m + cols * i, cols);
    if (threadIdx.x == 0) sums[i] = s;
  }
}
void run(const float *m, float *sums) { row_sums<<<500, 256>>>(m, sums, 1000, 10000); }
""")
    assert not [d for d in res.diagnostics if d.code == "CL301"]
    (t,) = res.tables
    assert len({it.trip.name for it in t.iterators}) == len(t.iterators)


def test_a_macro_that_names_a_type_sizes_what_is_declared_with_it(tmp_path):
    # built with `-D dfloat=double`: rows of 16 doubles, 8-way; without it the type is not known
    src = """__global__ void k(const dfloat* D, dfloat* out) {
  __shared__ dfloat s_D[16][16];
  const int i = threadIdx.x, j = threadIdx.y;
  s_D[j][i] = D[j * 16 + i];
  __syncthreads();
  dfloat acc = 0;
  for (int n = 0; n < 16; ++n) acc += s_D[i][n];
  out[blockIdx.x * 256 + j * 16 + i] = acc;
}
void run(const dfloat* D, dfloat* out, int N) { k<<<N, dim3(16, 16)>>>(D, out); }
"""
    path = tmp_path / "k.cu"
    path.write_text(src)
    got = [d.message for d in lint_paths([str(path)], Config(defines={"dfloat": "double"})).diagnostics
           if d.code == "CL401"]
    assert got and "8-way" in got[0]
    path.write_text("#define dfloat double\n" + src)
    got = [d.message for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL401"]
    assert got and "8-way" in got[0]


def test_an_alignment_a_macro_writes_pads_the_struct(tmp_path):
    # `struct ALIGN(16) Ray` with `#define ALIGN(x) __align__(x)`: 52 bytes of members, 64 with padding
    res = _run(tmp_path, """#define ALIGN(x) __align__(x)
struct ALIGN(16) Ray { float3 hit; float3 normal; float3 orig; float3 dir; unsigned clr; };
__global__ void trace(int n, Ray* rays) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x >= n) return;
  rays[x].clr = 0u;
}
void run(int n, Ray* rays) { trace<<<(n + 255) / 256, 256>>>(n, rays); }
""")
    (d,) = [d for d in res.diagnostics if d.code == "CL101"]
    assert "lanes 64 B apart" in d.message


def test_a_helpers_returned_read_and_a_shadowed_type_name_stand_where_the_text_has_them(tmp_path):
    # `return buf[0];` and `buf[i - half] += buf[i];` (`half` a local, also a CUDA type name): a
    # finding at either names the column of the subscript itself
    text = """__device__ float total(float *buf) {
  int n = blockDim.x;
  while (n > 1) {
    int half = (n + 1) >> 1;
    if (threadIdx.x >= half && threadIdx.x < n) buf[threadIdx.x - half] += buf[threadIdx.x];
    n = (n + 1) >> 1;
  }
  return buf[0];
}
__global__ void k(float *out) {
  __shared__ float s[200];
  s[threadIdx.x] = 1.0f;
  float t = total(s);
  if (threadIdx.x == 0) out[blockIdx.x] = t;
}
void run(float *out) { k<<<8, 200>>>(out); }
"""
    t, _ = _accesses(_run(tmp_path, text))
    lines = text.splitlines()
    for a in t.accesses:
        if a.array.name == "s" and a.line in (5, 8):
            assert lines[a.line - 1][a.column - 1:a.end_column - 1].startswith("buf["), (a.line, a.column)


def test_a_cast_to_a_class_template_instance_is_read(tmp_path):
    """`static_cast<const BBoxT<float>*>(p)` and `(Pair<int, float>*)q`: the cast's type is the
    template's instance (its layout gives the record's size), not a statement cudalint cannot read."""
    got = _run(tmp_path, """template <typename T> struct BBoxT { T y1, x1, y2, x2; };
template <typename A, typename B> struct Pair { A a; B b; };
__global__ void k(const void* in, void* out, int n) {
  const BBoxT<float>* boxes = static_cast<const BBoxT<float>*>(in);
  Pair<int, float>* pairs = (Pair<int, float>*)out;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) pairs[i].b = boxes[i].x1;
}
void run(const void* in, void* out, int n) { k<<<(n + 255) / 256, 256>>>(in, out, n); }
""")
    t, acc = _accesses(got)
    assert [(a[0], a[1], a[3], a[4]) for a in acc] == [("in", "load", 4, 4), ("out", "store", 4, 4)]
    assert not [d for d in got.diagnostics if d.code == "CL901" and "cannot read" in d.message]
    assert ("CL101", 7) in _codes(got)       # lanes 16 and 8 bytes apart


def test_constant_scalars_and_pointers_set_by_the_host_are_launch_values(tmp_path):
    """`__constant__ float *d_in; __constant__ int d_n;` set with cudaMemcpyToSymbol: the pointer
    points to global memory (its reads are simulated like a parameter's), the integer is one value for
    the launch, a size `--param` gives (the loop it bounds is followed, not a value loaded from memory)."""
    text = """__constant__ float *d_in;
__constant__ int d_n;
__constant__ int d_stride;
__global__ void k(float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < d_n) out[i] = d_in[i * d_stride];
}
void run(float* out) { k<<<64, 256>>>(out); }
"""
    got = _run(tmp_path, text)
    t, acc = _accesses(got)
    assert ("d_in", "load", "(blockIdx.x * blockDim.x + threadIdx.x) * d_stride", 4, 0) in acc
    assert set(t.params) >= {"d_n", "d_stride"}
    # uncoalesced only for strides the program does not give: no warning, and the figure a given stride makes
    assert "CL101" not in [d.code for d in got.diagnostics if d.severity == "warning"]
    path = tmp_path / "k.cu"
    given = lint_paths([str(path)], Config(params={"d_stride": 4}))
    assert [d.code for d in given.diagnostics if d.severity == "warning"] == ["CL101"]


def test_a_kernel_header_included_with_angle_brackets_from_the_files_own_folder_is_linted(tmp_path):
    """`#include <kernel/orb.hpp>` in src/orb.cu, built with `-I src`: the header is the project's
    own (its name has a header's extension, no system header has it), found from the including
    file's folder, and its kernels are linted with the folder (a 16x16 block's transposed shared
    reads: an 8-way conflict). Before, the walk took only quoted includes for kernel headers."""
    (tmp_path / "src" / "kernel").mkdir(parents=True)
    (tmp_path / "src" / "kernel" / "orb.hpp").write_text("""
__global__ void block_sum(const float *in, float *out) {
  __shared__ float data[256];
  unsigned idx = threadIdx.x * blockDim.x + threadIdx.y;
  data[idx] = in[blockIdx.x * 256 + threadIdx.y * 16 + threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0 && threadIdx.y == 0) out[blockIdx.x] = data[0];
}
static void launch(const float *in, float *out, int n) {
  dim3 threads(16, 16);
  block_sum<<<n, threads>>>(in, out);
}
""")
    (tmp_path / "src" / "orb.cu").write_text("#include <vector>\n#include <kernel/orb.hpp>\n"
                                             "void orb(const float *in, float *out, int n) { launch(in, out, n); }\n")
    got = lint_paths([str(tmp_path)], Config())
    assert [(d.path.endswith("orb.hpp"), d.code) for d in got.diagnostics if d.severity != "info"] == [(True, "CL401")]


def test_the_arms_of_a_block_uniform_test_never_meet_unless_the_kernel_writes_what_it_reads(tmp_path):
    """`if (flags[blockIdx.x] > 0) atomicAdd(&s, 1); else if (threadIdx.x == 0) s = 5;`: every thread of
    the block reads one flag, so one arm runs in a pass and the store never meets the atomics. Where
    the then-arm also clears the flag, threads that test it after that store take the other arm: the
    race between the arms stands."""
    src = """__global__ void k(int *flags, int *out) {
  __shared__ int s;
  if (threadIdx.x == 0) s = 0;
  __syncthreads();
  if (flags[blockIdx.x] > 0) {
    CLEAR
    atomicAdd(&s, 1);
  } else {
    if (threadIdx.x == 0) s = 5;
  }
  __syncthreads();
  out[blockIdx.x] = s;
}
void run(int *f, int *o) { k<<<8, 128>>>(f, o); }
"""
    assert ("CL501", 9) not in _codes(_run(tmp_path, src.replace("CLEAR", "")))
    assert ("CL501", 9) in _codes(_run(tmp_path, src.replace("CLEAR", "flags[blockIdx.x] = 0;")))


VECTOR_MEMBER = """struct Params { const float* x; float* y; int4 stride; int2 size; int n; };
__global__ void k(Params p) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= p.n) return;
  p.y[i * p.stride.x] = p.x[i * p.stride.x];
}
void run(Params p) { k<<<(p.n + 255) / 256, 256>>>(p); }
"""


def test_a_component_of_a_vector_member_of_a_by_value_struct_is_a_launch_value(tmp_path):
    # `p.stride.x` of an `int4 stride` member is given by the launch, as `p.n` is: an open stride,
    # not a value loaded from memory; the accesses it scales are simulated
    r = _run(tmp_path, VECTOR_MEMBER)
    t, acc = _accesses(r)
    assert ("x", "load", "(blockIdx.x * blockDim.x + threadIdx.x) * p.stride.x", 4, 0) in \
        [(a[0].split(".")[-1], *a[1:]) for a in acc]
    assert not [d for d in r.diagnostics if d.code == "CL901" and "loaded from memory" in d.message]


HELPER = """__device__ __forceinline__ int floor_div(int a, int b) {
  int t = 1 - a / b;
  return (a + t * b) / b - t;
}
__device__ int find(const int* keys, int n, int key) {
  for (int i = 0; i < n; ++i)
    if (keys[i] == key) return i;
  return -1;
}
__global__ void k(const float* x, float* y, const int* keys, int up, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = x[floor_div(i, up)] + x[find(keys, n, i)];
}
void run(const float* x, float* y, const int* keys, int up, int n) { k<<<(n + 255) / 256, 256>>>(x, y, keys, up, n); }
"""


def test_a_helper_of_several_statements_returns_its_value(tmp_path):
    # `floor_div`'s value is an expression of its arguments: the read it indexes is simulated;
    # `find` returns its own loop's counter, which means nothing outside it: that read is indirect
    r = _run(tmp_path, HELPER)
    t, acc = _accesses(r)
    x_reads = [a for a in t.accesses if a.array.name == "x"]
    assert len(x_reads) == 2
    assert sum(1 for a in x_reads if not a.unresolved) == 1
    indirect = [d for d in r.diagnostics if d.code == "CL901" and "loaded from memory" in d.message]
    assert len(indirect) == 1 and "find" in indirect[0].message
