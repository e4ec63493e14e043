"""A launch inside PyTorch's AT_DISPATCH_* lambda instantiates its kernel with each type of the
dispatch's family: the element type is one the program gives (read at the family's float, its int
where it has none, its half for the reduced types), not an assumed 4 bytes, and the finding says
which family it was read from. So is a host template called in the lambda with its types left to
deduction (`run(x.data_ptr<scalar_t>(), n)`), and a type alias the host function declares."""
from pathlib import Path

import pytest

from cudalint.lint import Config, lint_paths
from cudalint.model import dispatch

KERNEL = """
template <typename scalar_t>
__global__ void pick(const scalar_t* __restrict__ in, scalar_t* __restrict__ out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i * 4];
}
"""


def cl101(tmp_path: Path, host: str):
    (tmp_path / "k.cu").write_text(KERNEL + host)
    diags = lint_paths([str(tmp_path / "k.cu")], Config()).diagnostics
    [d] = [d for d in diags if d.code == "CL101"]
    return d


@pytest.mark.parametrize("macro, apart, read_as", [
    ("AT_DISPATCH_FLOATING_TYPES_AND_HALF", "16 B", "float"),
    ("AT_DISPATCH_INTEGRAL_TYPES", "16 B", "int"),
    ("AT_DISPATCH_REDUCED_FLOATING_TYPES", "8 B", "__half"),
])
def test_a_launch_in_a_dispatch_reads_the_kernel_at_a_type_of_its_family(tmp_path, macro, apart, read_as):
    d = cl101(tmp_path, f"""
void pick_cuda(at::Tensor in, at::Tensor out) {{
  int n = out.numel();
  {macro}(in.scalar_type(), "pick", [&] {{
    pick<scalar_t><<<(n + 255) / 256, 256>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  }});
}}
""")
    assert f"lanes {apart} apart" in d.message
    assert any(f"`scalar_t` of `{macro}`" in a and f"analysed with {read_as}" in a for a in d.assumptions)
    assert not any("not bound by a launch" in a for a in d.assumptions)


def test_the_type_is_deduced_from_a_typed_accessor(tmp_path):
    d = cl101(tmp_path, """
void pick_cuda(at::Tensor in, at::Tensor out) {
  int n = out.numel();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "pick", [&] {
    pick<<<(n + 255) / 256, 256>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
  });
}
""")
    assert "lanes 16 B apart" in d.message
    assert not any("not bound by a launch" in a for a in d.assumptions)


def test_a_host_template_called_in_a_dispatch_with_deduced_types_binds_the_kernel(tmp_path):
    d = cl101(tmp_path, """
template <typename scalar_t>
void pick_launch(const scalar_t* in, scalar_t* out, int n) {
  pick<scalar_t><<<(n + 255) / 256, 256>>>(in, out, n);
}
void pick_cuda(at::Tensor in, at::Tensor out) {
  int n = out.numel();
  AT_DISPATCH_FLOATING_TYPES(in.scalar_type(), "pick", ([&] {
    pick_launch(in.data_ptr<scalar_t>() + 0, out.data_ptr<scalar_t>(), n);
  }));
}
""")
    assert "lanes 16 B apart" in d.message
    assert not any("not bound by a launch" in a for a in d.assumptions)


def test_a_type_alias_of_the_host_function_binds_the_launch(tmp_path):
    d = cl101(tmp_path, """
void pick_cuda(at::Tensor in, at::Tensor out) {
  using scalar_t = double;
  int n = out.numel();
  pick<scalar_t><<<(n + 255) / 256, 256>>>(in.data_ptr<scalar_t>(), out.data_ptr<scalar_t>(), n);
}
""")
    assert "lanes 32 B apart" in d.message
    assert not any("not bound by a launch" in a for a in d.assumptions)


def test_without_a_dispatch_the_type_stays_open(tmp_path):
    # a name the host does not define is no type the program gives: the kernel is read at the
    # widths a program may bind, and the assumption says so
    (tmp_path / "k.cu").write_text(KERNEL + """
template <typename T> void pick_launch(const T* in, T* out, int n) { pick<T><<<(n + 255) / 256, 256>>>(in, out, n); }
""")
    diags = lint_paths([str(tmp_path / "k.cu")], Config(show_uncertain=True)).diagnostics
    assert any("not bound by a launch" in a for d in diags for a in d.assumptions)


def test_the_families_and_their_extra_types():
    text = b"""void f() {
  // AT_DISPATCH_INTEGRAL_TYPES(x, "in a comment", [&] { });
  AT_DISPATCH_FLOATING_TYPES_AND2(at::ScalarType::Half, at::kBFloat16, x.scalar_type(), "a(b", [&] {
    AT_DISPATCH_INDEX_TYPES(i.scalar_type(), "n", [&] { k<scalar_t, index_t><<<1, 32>>>(); });
  });
}"""
    found = dispatch.calls(text)
    assert [d.macro for d in found] == ["AT_DISPATCH_FLOATING_TYPES_AND2", "AT_DISPATCH_INDEX_TYPES"]
    assert found[0].types == ("double", "float", "at::Half", "at::BFloat16")
    around = dispatch.around(text, text.index(b"k<scalar_t"))
    assert (around["scalar_t"].read_as, around["index_t"].read_as) == ("float", "int")
    assert dispatch.around(text, text.index(b"void f")) == {}


def test_an_alias_of_a_type_the_unit_cannot_size_stays_open(tmp_path):
    # `at::acc_type<...>` is a library's: its width is not read from an alias of it, and the kernel
    # is tried at the widths a program may bind, as for a type no launch gives
    (tmp_path / "k.cu").write_text(KERNEL + """
void pick_cuda(at::Tensor in, at::Tensor out) {
  using acc_t = at::acc_type<float, true>;
  int n = out.numel();
  pick<acc_t><<<(n + 255) / 256, 256>>>(in.data_ptr<acc_t>(), out.data_ptr<acc_t>(), n);
}
""")
    diags = lint_paths([str(tmp_path / "k.cu")], Config(show_uncertain=True)).diagnostics
    [d] = [d for d in diags if d.code == "CL101"]
    assert any("`scalar_t`" in a and "not bound by a launch" in a for a in d.assumptions)
