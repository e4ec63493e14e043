"""Relations the program makes between its values, read where a verdict depends on them: a size
that is a multiple of the block, the arm of a clamp the launch's branch decides, a thread's own
row of a declared table, a record built field by field, an instantiation's arguments as one
tuple, a record written by loops."""
from cudalint.lint import Config, lint_paths

from test_host_values import launches

REDUCE = """
__global__ void group_sum(int n, const float *in, float *out) {
    extern __shared__ float cache[];
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        cache[threadIdx.x] = in[i];
        __syncthreads();
        if (threadIdx.x == 0) out[i / blockDim.x] = cache[0];
        __syncthreads();
    }
}
"""


def lint(tmp_path, src: str, **cfg) -> list:
    path = tmp_path / "k.cu"
    path.write_text(src)
    return lint_paths([str(path)], Config(**cfg)).diagnostics


def test_a_size_made_with_the_blocks_edge_is_a_multiple_of_the_block(tmp_path, monkeypatch):
    host = """
void launch(int m, int c, const float *in, float *out) {
    const int n = m * c%s;
    group_sum<<<(n + c - 1) / c, c, c * sizeof(float)>>>(n, in, out);
}
"""
    got = launches(tmp_path / "a", {"k.cu": REDUCE + host % ""}, monkeypatch)
    assert "n % blockDim.x == 0" in [str(c) for c in got["group_sum"][0].host_checks]
    got = launches(tmp_path / "b", {"k.cu": REDUCE + host % " + 1"}, monkeypatch)
    assert not any("blockDim" in str(c) for c in got["group_sum"][0].host_checks)
    # the barrier in the grid-stride loop: every thread makes the same trips only in the first
    assert [d.code for d in lint(tmp_path, REDUCE + host % "") if d.code == "CL502"] == []
    assert [d.code for d in lint(tmp_path, REDUCE + host % " + 1") if d.code == "CL502"] == ["CL502", "CL502"]


def test_a_numeric_block_divides_a_size_whose_factor_the_branch_makes_a_multiple(tmp_path, monkeypatch):
    """`if ((c & 1023) == 0)`: c is a multiple of 1024, so `m * c` is one of the 256-thread block."""
    host = """
void launch(int m, int c, const float *in, float *out) {
    const int n = m * c;
    if (c > 1024 && m > 0 && %s)        // m is bounded too: the factor c decides
        group_sum<<<(n + 255) / 256, 256, 256 * sizeof(float)>>>(n, in, out);
}
"""
    got = launches(tmp_path / "a", {"k.cu": REDUCE + host % "(c & 1023) == 0"}, monkeypatch)
    assert "n % 256 == 0" in [str(c) for c in got["group_sum"][0].host_checks]
    got = launches(tmp_path / "b", {"k.cu": REDUCE + host % "(c & 127) == 0"}, monkeypatch)
    assert not any("n %" in str(c) for c in got["group_sum"][0].host_checks)


def test_the_launchs_branch_decides_a_clamped_block_by_its_range(tmp_path, monkeypatch):
    """`threads = c > 256 ? 256 : c` under `if (c < 64)` is c; under `if (c > 1024)` it is 256;
    where the branch says nothing of c it stays a clamp."""
    src = REDUCE + """
void launch(int m, int c, const float *in, float *out) {
    const int threads = c > 256 ? 256 : c;
    const int n = m * c;
    if (c %s)
        group_sum<<<(n + threads - 1) / threads, threads, threads * sizeof(float)>>>(n, in, out);
}
"""
    small = launches(tmp_path / "a", {"k.cu": src % "< 64"}, monkeypatch)["group_sum"][0]
    assert str(small.block[0]) == "c"
    large = launches(tmp_path / "b", {"k.cu": src % "> 1024"}, monkeypatch)["group_sum"][0]
    assert str(large.block[0]) == "256"
    either = launches(tmp_path / "c", {"k.cu": src % "!= 7"}, monkeypatch)["group_sum"][0]
    assert str(either.block[0]) != "c"
    # a range given with other tests in one condition
    both = launches(tmp_path / "d", {"k.cu": src % "< 64 && m > 0"}, monkeypatch)["group_sum"][0]
    assert str(both.block[0]) == "c"


def test_a_threads_own_row_of_a_declared_table_leaves_spare_room_not_a_hole(tmp_path):
    """`float cs[32][32]`, each thread filling columns 0..24 of its row: bank conflicts, no CL301."""
    src = """
__global__ void rows(const float *in, float *out) {
    __shared__ float cs[32][32];
    float *vals = &cs[threadIdx.x][0];
    float *psum = &cs[threadIdx.x][8];
    for (int s = 0; s < 8; ++s) vals[s] = in[s * 32 + threadIdx.x];
    for (int s = 0; s < 16; ++s) psum[s] = vals[s & 7] * s;
    cs[threadIdx.x][24] = psum[3];
    out[threadIdx.x] = cs[threadIdx.x][24];
}
void run(const float *in, float *out) { rows<<<1, 32>>>(in, out); }
"""
    codes = [d.code for d in lint(tmp_path, src)]
    assert "CL401" in codes and "CL301" not in codes
    # the same row filled with a gap in it (columns 8..15 never reached) is a hole
    codes = [d.code for d in lint(tmp_path, src.replace("&cs[threadIdx.x][8]", "&cs[threadIdx.x][16]"))]
    assert "CL301" in codes


def test_a_struct_built_field_by_field_from_the_same_loads_is_one_value(tmp_path):
    src = """
__global__ void stats(const float *red, const float *x, float2 *out, int cpg, float inv) {
    int ci = blockIdx.x * 128 + threadIdx.x * 2;
    int gi = ci / cpg;
    float sum = red[gi];
    float2 s;
    s.x = sum * inv;
    s.y = %s;
    out[gi] = s;
}
void run(const float *red, const float *x, float2 *out) { stats<<<4, 64>>>(red, x, out, 16, 0.5f); }
"""
    assert [d for d in lint(tmp_path, src % "sum") if d.code == "CL302"] == []
    assert [d.code for d in lint(tmp_path, src % "x[blockIdx.x * 64 + threadIdx.x]")
            if d.code == "CL302"] == ["CL302"]
    # a field set under a condition of the thread's may differ between the group's threads
    guarded = src.replace("    s.y = %s;", "    s.y = 0.f;\n    if (threadIdx.x & 1) s.y = sum;")
    assert [d.code for d in lint(tmp_path, guarded) if d.code == "CL302"] == ["CL302"]


def test_an_instantiations_type_and_value_arguments_go_together(tmp_path):
    """`launch<__half, 16>` and `launch<float, 32>`: analysed with T = __half, BITS is 16."""
    src = """
#include <cuda_fp16.h>
template <typename T, int BITS>
__global__ void k(const T *a, float *out) {
    T local[8];
    if (BITS == 16) {
        reinterpret_cast<int4(&)[1]>(local)[0] = reinterpret_cast<const int4 *>(a)[threadIdx.x];
    } else {
        reinterpret_cast<int4(&)[2]>(local)[1] = reinterpret_cast<const int4 *>(a)[threadIdx.x];
    }
    out[threadIdx.x] = (float)local[threadIdx.x & 7];
}
template <typename T, int BITS>
void launch(const T *a, float *out) { k<T, BITS><<<1, 128>>>(a, out); }
template void launch<__half, 16>(const __half *, float *);
template void launch<float, 32>(const float *, float *);
"""
    assert [d for d in lint(tmp_path, src) if d.code == "CL201"] == []
    # were both values taken for __half, the second int4 would run past its 16 bytes
    assert [d.code for d in lint(tmp_path, src.replace("launch<float, 32>(const float", "launch<__half, 32>(const __half"))
            if d.code == "CL201"] == ["CL201"]


def test_a_record_written_by_loops_is_counted_in_runs_not_fields(tmp_path):
    src = """
__global__ void rows(int n, int c, const float *xyz, const float *feat, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int dst = i * (3 + c);
    for (int j = 0; j < 3; j++) out[dst + j] = xyz[j];
    for (int j = 0; j < c; j++) out[dst + 3 + j] = feat[j];
}
void run(const float *x, const float *f, float *o) { rows<<<16, 256>>>(4096, 128, x, f, o); }
"""
    (d,) = [d for d in lint(tmp_path, src) if d.code == "CL101"]
    assert "runs of fields" in d.message and "2 fields" not in d.message


def test_a_value_loaded_under_a_test_is_a_function_of_the_test_and_the_load(tmp_path):
    """`float sum = 0.f; if (gi < groups) sum = red[gi];`: the threads of group gi agree on the
    test and on the load, so they store one value."""
    src = """
__global__ void stats(const float *red, const float *x, float *out, int cpg, int groups) {
    int ci = blockIdx.x * 128 + threadIdx.x * 2;
    int gi = ci / cpg;
    float sum = 0.f;
    if (%s) sum = red[gi];
    if (gi < groups) out[gi] = sum;
}
void run(const float *red, const float *x, float *out) { stats<<<4, 64>>>(red, x, out, 16, 32); }
"""
    assert [d for d in lint(tmp_path, src % "gi < groups") if d.code == "CL302"] == []
    # a test each thread answers for itself: the group's threads hold different values
    assert [d.code for d in lint(tmp_path, src % "threadIdx.x & 1") if d.code == "CL302"] == ["CL302"]


def test_a_helpers_fields_count_in_each_kernel_that_calls_it(tmp_path):
    """`overlap()` is said once, at its first caller; the second kernel, which reads two more
    fields of the same 7-float box, counts the helper's three too."""
    src = """
__device__ inline float overlap(const float *a) { return a[6] * (a[0] + a[1]); }
__device__ inline float iou(const float *a) { float s = a[3] * a[4]; return overlap(a) / (s + 1.f); }
__global__ void k_overlap(int n, const float *boxes, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = overlap(boxes + i * 7);
}
__global__ void k_iou(int n, const float *boxes, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = iou(boxes + i * 7);
}
void run(const float *b, float *o) { k_overlap<<<16, 256>>>(4096, b, o); k_iou<<<16, 256>>>(4096, b, o); }
"""
    got = {d.kernel: d.message for d in lint(tmp_path, src) if d.code == "CL101"}
    assert "3 fields" in got["k_overlap"] and "5 fields" in got["k_iou"]


def test_a_pointer_cast_to_a_qualified_type_and_a_braced_list_with_a_trailing_comma_are_read(tmp_path):
    """`(glm::vec3*)p` where glm's header is not found, and `float3 t = { ..., };`: the statements
    are read (they were "cannot read"), and a call of a parenthesized qualified function is no cast."""
    src = """
__device__ float3 shift(const float3 &p, const float *m) {
    float3 t = {
        m[0] * p.x + m[3],
        m[1] * p.y + m[4],
        m[2] * p.z + m[5],
    };
    return t;
}
__device__ float first(const glm::vec3 *v) { return 0.f; }
__global__ void k(const float *pts, const float *m, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 p = make_float3(pts[i], pts[i + n], pts[i + 2 * n]);
    float3 q = shift(p, m);
    out[i] = q.x + first((glm::vec3*)pts) + (std::max)(q.y, q.z);
}
void run(const float *p, const float *m, float *o) { k<<<16, 256>>>(p, m, o, 4096); }
"""
    notes = [d.message for d in lint(tmp_path, src, show_limits=True) if d.code in ("CL900", "CL901")]
    assert not [m for m in notes if "cannot read" in m], notes


def test_a_launch_in_a_branch_no_call_takes_never_runs(tmp_path):
    src = """
__global__ void k(float *out) {
    __shared__ float s[128];
    s[threadIdx.x * 4 + threadIdx.y] = 1.f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
static void launch(float *out, bool fast) {
    if (fast) return;
    k<<<1, dim3(32, 4)>>>(out);
}
void a(float *out) { launch(out, true); }
void b(float *out) { launch(out, %s); }
"""
    got = lint(tmp_path, src % "true", show_limits=True)
    assert [d for d in got if d.code == "CL401"] == []
    assert any("no call of `launch`" in d.message for d in got if d.code == "CL901")
    # one call taking the branch: the kernel runs, and its conflict is reported
    assert [d.code for d in lint(tmp_path, src % "false") if d.code == "CL401"] == ["CL401"]
    # a call whose value the program does not give may take it
    assert [d.code for d in lint(tmp_path, src.replace("launch(out, %s)", "launch(out, *(bool *)out)"))
            if d.code == "CL401"] == ["CL401"]


def test_a_shared_members_read_under_a_test_of_the_first_are_one_load(tmp_path):
    src = """
__global__ void flush(int *bins) {
    extern __shared__ int2 t[];
    t[threadIdx.x] = make_int2(threadIdx.x, 1);
    __syncthreads();
    %s
}
void run(int *b) { flush<<<1, 256, 256 * sizeof(int2)>>>(b); }
"""
    together = "if (t[threadIdx.x].x != -1 && t[threadIdx.x].y > 0) atomicAdd(b + 0, t[threadIdx.x].y);"
    assert [d for d in lint(tmp_path, src % together.replace("b + 0", "bins")) if d.code == "CL401"] == []
    # under a test of something else first: the second member's load is its own
    apart = "if (threadIdx.x & 1) atomicAdd(bins, t[threadIdx.x].y); if (t[threadIdx.x].x > 3) bins[1] = 0;"
    assert "CL401" in [d.code for d in lint(tmp_path, src % apart)]
    # the first read, then a later statement under a test: the new member is a load of its own
    later = "int k = t[threadIdx.x].x; if (k > 3) bins[threadIdx.x] = t[threadIdx.x].y;"
    assert [d.line for d in lint(tmp_path, src % later) if d.code == "CL401"] == [6, 6]


def test_a_loops_start_is_an_offset_and_an_access_the_first_trial_skips_is_judged_by_the_others(tmp_path):
    """`for (j = start; j < n; ++j)`: tried with start at n's values the loop never runs; start is
    an offset (tried at 1 too), and the uncoalesced store is judged where the loop runs."""
    src = """
__global__ void k(const float *in, float *out, int n, int start, int ld) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int j = start; j < n; ++j)
        out[%s] = in[j];
}
void run(const float *in, float *out, int n, int start, int ld) { k<<<16, 256>>>(in, out, n, start, ld); }
"""
    assert [d.code for d in lint(tmp_path, src % "t * ld + j")] == ["CL101"]
    assert [d.code for d in lint(tmp_path, src % "j * ld + t")] == []


def test_an_objects_members_hold_what_its_constructor_gave_unless_a_method_changes_them(tmp_path):
    """`Row r(x + i * 32)` keeps the row's pointer: `r.at(j)` and `r.sum()` read through it. A
    member a method assigns (`n_++` in `add`) is not the constructor's value for the object's life:
    a loop bounded by it is not taken as empty."""
    src = """
struct Row {
    const float *p_;
    int n_;
    __device__ Row(const float *p) : p_(p), n_(0) {}
    __device__ void add() { n_++; }
    __device__ int size() const { return n_; }
    __device__ float at(int j) const { return p_[j]; }
};
__global__ void k(const float *x, float *out, int rows) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= rows) return;
    Row r(x + i * 32);
    r.add();
    float s = r.at(0);
    for (int j = 0; j < r.size(); ++j) out[i * 32 + j] = s;
}
void run(const float *x, float *out) { k<<<16, 256>>>(x, out, 4096); }
"""
    got = sorted((d.line, d.code) for d in lint(tmp_path, src))
    assert got == [(8, "CL101"), (16, "CL101")], got      # `p_[j]` in `at`, where its text stands


def test_a_check_on_the_kernels_name_for_another_host_value_is_not_the_hosts_own(tmp_path):
    """`assert(grid_size < 1024); k<<<1, 1024>>>(out, grid_size)` in `f(..., size_t count)` with the
    kernel's parameter named `count`: the check is on grid_size, and a caller's large `count` does
    not make the launch unreachable."""
    src = """
#include <cassert>
__global__ void sum_blocks(float *out, int count) {
    __shared__ float s[1024];
    s[threadIdx.x] = threadIdx.x < count ? out[threadIdx.x * 32] : 0.f;
    __syncthreads();
    if (threadIdx.x == 0) out[0] = s[0] + s[1023];
}
void f(float *out, int count, int blocks) {
    const int grid_size = blocks;
    assert(grid_size < 1024);
    sum_blocks<<<1, 1024>>>(out, grid_size);
}
int main() { float *o; f(o, 100000000, 132); }
"""
    assert [d.code for d in lint(tmp_path, src)] == ["CL101"]


ENC = """
template <unsigned D>
__global__ void enc(const float* in, float* out, unsigned B) {
    unsigned b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b >= B) return;
    float s = 0.f;
    for (unsigned d = 0; d < D; d++) s += in[b * D + d];
    out[b] = s;
}
void run(const float* in, float* out, unsigned B, unsigned D) {
    switch (D) {
    case 2: enc<2><<<(B + 511) / 512, 512>>>(in, out, B); break;
    case 3: enc<3><<<(B + 511) / 512, 512>>>(in, out, B); break;
    }
}
void top(const float* in, float* out) {
    run(in, out, 1 << 20, 3);%s
}
"""


def test_a_switch_case_no_call_takes_launches_nothing(tmp_path):
    # every call passes D = 3: `case 2` never runs, and the finding is the D = 3 instance's
    [d] = [d for d in lint(tmp_path, ENC % "") if d.code == "CL101"]
    assert "12 sectors/request" in d.message and "lanes 12 B apart" in d.message


def test_a_figure_of_one_of_several_instances_says_which(tmp_path):
    # calls pass 3 and 2: both instances run; the figure is the first launch's, and says so
    [d] = [d for d in lint(tmp_path, ENC % "\n    run(in, out, 1 << 20, 2);") if d.code == "CL101"]
    assert "8 sectors/request" in d.message and "as `enc<2>`" in d.message


def test_a_grid_edge_assigned_in_a_switch_before_the_launch_is_not_the_default(tmp_path):
    # `dim3 grid;` then `grid.x = ...` in each case: grid.x is the case's, not dim3's default 1 (with
    # 1 the 32-lane block would seem to have been rounded up from N = 16, and overrun it)
    src = """
__global__ void copy16(const float* x, float* out, int N) {
    int offset = blockIdx.x * 32 + threadIdx.x;
    for (int i = 0; i < N / blockDim.y; i++) {
        int idx = (threadIdx.y + i * blockDim.y) * 32 * gridDim.x;
        out[idx + offset] = x[idx + offset];
    }
}
void run(const float* x, float* out, unsigned M) {
    dim3 grid;
    dim3 block(32, 4);
    switch (M) {
    case 8192: grid.x = 128; break;
    default:   grid.x = 512; break;
    }
    copy16<<<grid, block>>>(x, out, 16);
}
"""
    assert [d for d in lint(tmp_path, src) if d.code in ("CL201", "CL202")] == []
