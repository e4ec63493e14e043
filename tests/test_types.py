"""Sizes and layouts of C/C++ types (index/types.py), read from a translation unit's definitions.
Every figure below is the one nvcc gives (`static_assert(sizeof(...) == ...)` compiled with nvcc 12)."""
from cudalint.index import ir
from cudalint.index.types import builtin_layout
from cudalint.source.cufile import SourceFile
from cudalint.source.project import Project

UNIT = r"""
struct __align__(16) Node { int starting; int no_of_edges; float w[4]; struct { float a, b; } in;
  union { int i; float f; }; static const int K = 3;
  __device__ float get() const { return w[0]; } unsigned flag : 1; unsigned g : 3; };
typedef struct { float x; double y; } Pt;
template <typename T, int N> struct Pack { T v[N]; };
namespace ns { struct alignas(8) Q : Node { char c; }; }
struct S3 { char c; float3 p; short s; double2 d; half2 h; __nv_bfloat162 b; uchar4 u; };
struct Mixed { char a; int4 v; char b; };
union U { double d; char c[12]; };
#define NB 5
const int KK = NB * 2;
struct Arr { float a[KK][2]; char t; };
using Alias = Arr;
typedef float real;
struct Particle { real pos[3]; real mass; };
"""


def _types(text=UNIT):
    src = SourceFile("unit.cu", text)
    return Project([src]).types_for(src)


def test_builtin_vector_types_have_cuda_sizes_and_alignments():
    assert builtin_layout("float4") == (16, 16)
    assert builtin_layout("float3") == (12, 4)
    assert builtin_layout("double2") == (16, 16)
    assert builtin_layout("uchar4") == (4, 4)
    assert builtin_layout("int2") == (8, 8)
    assert builtin_layout("__nv_bfloat162") == (4, 4)
    assert builtin_layout("const unsigned short int") == (2, 2)
    assert ir.type_size("half2") == 4          # the parser's sizes are the same table's


def test_struct_sizes_offsets_and_padding_match_nvcc():
    t = _types()
    assert t.size("Node") == 48                # __align__(16), a bit-field unit, an anonymous union
    assert t.size("Pt") == 16                  # typedef of an unnamed struct
    assert t.size("Pack<float4, 3>") == 48     # a template bound by its arguments
    assert t.size("ns::Q") == 64 and t.size("Q") == 64      # a base class first, then padding
    assert t.size("S3") == 64
    assert t.member("S3", "d").offset == 32 and t.member("S3", "u").offset == 56
    assert t.size("Mixed") == 48
    assert t.size("U") == 16                   # a union: its largest member, padded to double
    assert t.size("Arr") == 84                 # extents from a constant and a macro
    assert t.size("Alias") == 84


def test_nested_members_and_vector_members():
    t = _types()
    b = t.member("Node", "in.b")
    assert (b.offset, b.size, b.type) == (28, 4, "float")
    assert t.member("Node", "f").offset == 32          # a member of an anonymous union
    assert t.member("float4", "z").offset == 8
    assert t.member("Particle", "mass").offset == 12 and t.member("Particle", "pos").count == 3


def test_unknown_types_have_no_size():
    t = _types("struct Opaque; struct Holder { Opaque o; int n; }; struct Dyn { float v[N_UNDEFINED]; };")
    assert t.size("Holder") is None and t.size("Dyn") is None and t.size("Nowhere") is None


def test_file_scope_device_variables_are_collected():
    src = SourceFile("v.cu", "__shared__ float tile[32][33];\nextern __shared__ float dyn[];\n"
                             "__constant__ float coef[16];\nnamespace k { __device__ int counter; }\n"
                             "__global__ void f(float *a) { __shared__ float local[8]; a[0] = local[0]; }\n")
    v = src.variables
    assert (v["tile"].space, v["tile"].dims) == ("shared", ("32", "33"))
    assert v["dyn"].extern and v["dyn"].dims == (None,)
    assert (v["coef"].space, v["coef"].type_text) == ("constant", "float")
    assert v["k::counter"].space == "global"
    assert "local" not in v                     # a kernel's own shared array is the model's walk


def test_member_loads_are_reported_where_they_are_written_and_one_record_is_one_finding(tmp_path):
    """`sqrtf(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z)` of a `float3` array: each lane
    reads a 12-byte record, three times the sectors a warp needs. The finding points at `v[i].x`
    (not at the statement's start), and the three fields of the record are one finding that says so."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "norm.cu"
    path.write_text("__global__ void norm(const float3* v, float* out, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) out[i] = sqrtf(v[i].x * v[i].x + v[i].y * v[i].y + v[i].z * v[i].z);\n"
                    "}\n"
                    "void run(const float3* v, float* out, int n) { norm<<<(n + 255) / 256, 256>>>(v, out, n); }\n")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"]
    assert len(found) == 1
    (d,) = found
    assert (d.line, d.column) == (3, 29) and "`v[i].x`" in d.message
    assert "each thread reads 3 fields of its record" in d.message


def test_one_field_read_twice_in_a_statement_is_one_finding(tmp_path):
    """`if (in[i * 2] < 0 || in[i * 2] > 1)`: one element of a 2-float record a lane, read twice in
    one condition (nvcc loads it once): one CL101 finding, at the first."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "clamp.cu"
    path.write_text("__global__ void check(const float* in, int* bad, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n && (in[i * 2] < 0.f || in[i * 2] > 1.f)) bad[i] = 1;\n"
                    "}\n"
                    "void run(const float* in, int* bad, int n) { check<<<(n + 255) / 256, 256>>>(in, bad, n); }\n")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"]
    assert [(d.line, d.column) for d in found] == [(3, 17)]


def test_a_member_type_of_a_class_template_is_its_own_class_s_not_another_s():
    types = _types("""
        template <typename T> struct vec4 { typedef float4 Type; };
        template <> struct vec4<double> { typedef double Type; };
        template <typename T, int N> struct PackType { using type = float; };
        template <> struct PackType<half, 8> { using type = int4; };
        struct Other { using type = half; };
        template <typename T> struct alignas(16) Packed128 {
          static constexpr const int size = sizeof(int4) / sizeof(T);
          T payload[size];
        };
    """)
    # the primary's member where no specialization takes the instance, the specialization's where one does
    assert types.size("vec4<float>::Type") == 16
    assert types.size("vec4<double>::Type") == 8
    assert types.size("PackType<half, 8>::type") == 16
    assert types.size("PackType<float, 4>::type") == 4
    # an unknown class's `type` is not `Other::type`
    assert types.size("Unknown<float>::type") is None
    # a choice of type made by the template's values, where they fold
    assert types.size("std::conditional_t<(D <= 1), ushort4, uint4>", {"D": "1"}) == 8
    assert types.size("std::conditional<(D <= 1), ushort4, uint4>::type", {"D": "3"}) == 16
    assert types.size("std::conditional_t<(D <= 1), ushort4, uint4>") is None
    # an extent that is the class's own static member, sized by its template argument
    assert types.size("Packed128<half>") == 16
    assert types.layout("Packed128<float>").member("payload").count == 4


def test_fixed_width_names_a_header_outside_the_unit_gives_have_their_width():
    """`int32`, `uint64`, `u8` (a library's `types.h` the unit does not see, as kaldi's OpenFST
    one): their width is their name, so a record of them has a size and its members offsets; a
    typedef the unit gives is read first."""
    t = _types("struct Lane { int32 end; int32 emitted; float beam; int64 offset; u8 flag; uint16 id; };\n"
               "typedef short s32;\nstruct Odd { s32 a; s32 b; };")
    assert t.size("Lane") == 32 and t.member("Lane", "offset").offset == 16
    assert t.member("Lane", "id").offset == 26
    assert t.size("Odd") == 4                  # the unit's own typedef wins over the name
    assert ir.INT_KINDS["uint32"] == (32, False) and ir.INT_KINDS["u8"] == (32, True)    # u8 promotes to int


def test_a_record_of_fixed_width_names_read_a_lane_is_uncoalesced_by_its_size(tmp_path):
    """Each thread reads its lane's record of `int32` fields from a header the unit does not see:
    the record is 16 bytes, so a warp's 4-byte reads take 16 sectors, not the 4 an element a lane
    would (before, the record had no size and its reads were not simulated)."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "lanes.cu"
    path.write_text("#include <fst/types.h>\n"
                    "struct Lane { int32 end; int32 emitted; int32 extra; int32 overflow; };\n"
                    "__global__ void offsets(const Lane* lanes, int* out, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) out[i] = lanes[i].end + lanes[i].emitted;\n"
                    "}\n"
                    "void run(const Lane* l, int* out, int n) { offsets<<<(n + 127) / 128, 128>>>(l, out, n); }\n")
    found = [d for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"]
    assert [d.line for d in found] == [5]
    assert "16 sectors/request, ideal 4" in found[0].message and "16 B apart" in found[0].message


def test_pytorch_s_scalar_types_have_their_width():
    """`at::BFloat16`, `c10::Half` and the others an extension's kernels take from headers a lint
    does not read are 2 bytes (and a complex of floats 8): a kernel over them is read at that width."""
    assert builtin_layout("const at::BFloat16") == (2, 2) and builtin_layout("c10::Half") == (2, 2)
    assert builtin_layout("c10::complex<float>") == (8, 8) and builtin_layout("at::Float8_e4m3fn") == (1, 1)


PAIRS = """#include <cuda_bf16.h>
__global__ void add_pairs(const SCALAR* __restrict__ x, SCALAR* __restrict__ out, long pairs) {
    long i = (long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= pairs) return;
    __nv_bfloat162 v = *reinterpret_cast<const __nv_bfloat162*>(x + STEP * i);
    *reinterpret_cast<__nv_bfloat162*>(out + STEP * i) = __hadd2(v, v);
}
void run(const SCALAR* x, SCALAR* out, long n) { add_pairs<<<(int)((n / 2 + 255) / 256), 256>>>(x, out, n / 2); }
"""


def test_a_type_the_unit_does_not_define_makes_no_warning_that_rests_on_its_width(tmp_path):
    """Pairs of a scalar type from a header not read, read as `__nv_bfloat162`: at the 4 bytes
    cudalint assumes for it the lanes are 8 B apart, at 2 (what the cast says it is) they follow
    each other. The verdict rests on a width cudalint chose: an info, shown with the uncertain
    switch. Pairs read 4 elements apart are uncoalesced at either width: a warning."""
    from cudalint.lint import Config, lint_paths
    path = tmp_path / "pairs.cu"
    path.write_text(PAIRS.replace("SCALAR", "lib::Scalar").replace("STEP", "2"))
    assert not [d for d in lint_paths([str(path)], Config()).diagnostics if d.severity == "warning"]
    shown = [d for d in lint_paths([str(path)], Config(show_uncertain=True)).diagnostics if d.code == "CL101"]
    assert shown and all(d.severity == "info" and "only when `lib::Scalar` is 4 bytes, not 2" in d.message
                         for d in shown)
    path.write_text(PAIRS.replace("SCALAR", "lib::Scalar").replace("STEP", "4"))
    assert {d.severity for d in lint_paths([str(path)], Config()).diagnostics if d.code == "CL101"} == {"warning"}
    # PyTorch's own bfloat16 is read at its 2 bytes: the pairs follow each other
    path.write_text(PAIRS.replace("SCALAR", "at::BFloat16").replace("STEP", "2"))
    assert not [d for d in lint_paths([str(path)], Config(show_uncertain=True)).diagnostics if d.code == "CL101"]
