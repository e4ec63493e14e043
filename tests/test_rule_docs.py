"""Each rule's documentation is tested, as pycodestyle tests its docstrings' examples: the code of
its *Example* section, run in the rule's EXAMPLE_KERNEL, gets the rule's finding; the code of its
*Use instead* section does not."""
import re

import pytest

from cudalint.lint import Config, lint_sources, read_file
from cudalint.report import ruledoc
from cudalint.rules import ALL

DOCUMENTED = [r for r in ALL if hasattr(r, "EXAMPLE_KERNEL")]


def _code(rule, section: str) -> str | None:
    m = re.search(r"```cuda\n(.*?)```", ruledoc.sections(rule).get(section, ""), re.S)
    return m.group(1) if m else None


def _codes(rule, snippet: str) -> set[str]:
    text = rule.EXAMPLE_KERNEL.replace("$CODE", snippet)
    cfg = Config(show_limits=True)
    src = read_file(f"{rule.CODE.lower()}_example.cu", cfg, text.encode())
    return {d.code for d in lint_sources([src], cfg).diagnostics if d.severity in ("warning", "error")}


def test_every_rule_that_finds_something_in_kernels_has_a_tested_example():
    assert {r.CODE for r in DOCUMENTED} >= {"CL101", "CL102", "CL201", "CL202", "CL203", "CL301", "CL302", "CL401",
                                            "CL501", "CL502", "CL910"}


@pytest.mark.parametrize("rule", DOCUMENTED, ids=lambda r: r.CODE)
def test_the_example_gets_the_finding(rule):
    snippet = _code(rule, "example")
    assert snippet, f"{rule.CODE}: no ```cuda block under ## Example"
    assert rule.CODE in _codes(rule, snippet)


@pytest.mark.parametrize("rule", DOCUMENTED, ids=lambda r: r.CODE)
def test_use_instead_does_not(rule):
    snippet = _code(rule, "use instead")
    assert snippet, f"{rule.CODE}: no ```cuda block under ## Use instead"
    assert rule.CODE not in _codes(rule, snippet)
