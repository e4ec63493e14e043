"""Host code written with statement macros is read through their expansions: a dispatch chain
`PICK(32) else PICK(16)`, each `PICK(N)` an `if (planes % N == 0) { launch<T, N>(...); }`, gives
the host template its values and the launch its checks, and parses as the code it expands to."""
from pathlib import Path

from cudalint.lint import Config, lint_paths
from cudalint.source.cufile import _chained_if_macros

SAMPLES = Path(__file__).resolve().parent.parent / "samples"


def test_a_chain_of_if_macros_reads_as_statements_with_its_columns_kept():
    text = "void f(int n) {\n  PICK(32) else PICK(16)\n}\n"
    got = _chained_if_macros(text, frozenset({"PICK"}))
    assert len(got) == len(text) and got.count("\n") == text.count("\n")
    assert got.splitlines()[1] == "  PICK(32);     PICK(16);"[:len(text.splitlines()[1])]
    # a use inside a directive, or a macro that is not an `if`, is left as written
    assert _chained_if_macros("#define TWICE PICK(2) else PICK(1)\n", frozenset({"PICK"})).startswith("#define TWICE PICK(2) else")


def test_the_dispatch_s_checks_and_values_decide_the_barrier():
    good = lint_paths([str(SAMPLES / "macro_dispatch_good.cu")], Config(show_limits=True)).diagnostics
    assert not [d for d in good if d.severity in ("warning", "error") or d.code == "CL900"]
    bad = lint_paths([str(SAMPLES / "macro_dispatch_bad.cu")], Config()).diagnostics
    assert sorted((d.code, d.line) for d in bad) == [("CL502", 12), ("CL502", 18)]
    # the block width is the macro uses' 32 and 16, not a width cudalint chose
    assert all("not given" not in a for d in bad for a in d.assumptions)


def test_a_macro_s_definition_is_no_instance_of_the_template_it_names(tmp_path):
    # `launch<T, N>` in a `#define` is no instantiation with a value out of sight: the uses'
    # expansions give N, and a comment naming the template gives nothing
    path = tmp_path / "k.cu"
    path.write_text(SAMPLES.joinpath("macro_dispatch_good.cu").read_text()
                    + "\n// reduce_launch<T, NTX, 8>(...) was the old launch\n")
    diags = lint_paths([str(path)], Config(show_limits=True)).diagnostics
    assert not [d for d in diags if d.severity in ("warning", "error")]
