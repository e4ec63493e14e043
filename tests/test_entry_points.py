"""Every entry point gives a file the same findings: `cudalint check FILE`, standard input named
by --stdin-filename, explain's findings lists and the engine's API, over every sample (the same
comparison over real code: bench/bench_entry_points.py)."""
import json
import sys

import pytest

from conftest import ROOT, sample_files

sys.path.insert(0, str(ROOT / "bench"))
from bench_entry_points import _main, entry_point_findings  # noqa: E402


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: str(p.relative_to(ROOT / "samples")))
def test_entry_points_agree(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    got = entry_point_findings(str(path.relative_to(ROOT)))
    check = got["check"]
    assert got["stdin"] == check
    assert got["engine"] == check
    assert got["explain"] == got["check, in kernels"]


def test_header_read_in_its_translation_unit(monkeypatch):
    """A kernel header whose launch is in the runner that includes it: every entry point sees the
    launch (standard input and explain once read the header alone and found none)."""
    monkeypatch.chdir(ROOT)
    got = entry_point_findings("samples/headers/saxpy_kernel.cuh")
    assert {f[3] for f in got["check"]} == {"CL202"} and len(got["check"]) == 3
    assert got["stdin"] == got["explain"] == got["engine"] == got["check"]


def test_launch_from_configuration_file(tmp_path, monkeypatch):
    """A launch given in `.cudalint.toml` is the one explain shows and checks with, as check does."""
    (tmp_path / ".cudalint.toml").write_text("[launch]\nscale = { grid = [4], block = [128] }\n")
    (tmp_path / "scale.cu").write_text(
        "__global__ void scale(float *x, int n) {\n"
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
        "  x[i] = 2.0f * x[i];\n"
        "}\n")
    monkeypatch.chdir(tmp_path)
    got = entry_point_findings("scale.cu")
    assert got["stdin"] == got["explain"] == got["engine"] == got["check"]
    code, text = _main(["explain", "--format", "json", "scale.cu"])
    (kernel,) = json.loads(text)["kernels"]
    assert kernel["launch_known"] and kernel["launch"].startswith("grid (4, 1, 1) x block (128, 1, 1)")


def test_unsaved_buffer_stands_for_its_file(monkeypatch):
    """An editor's unsaved text is what the engine reads for the file, in the file's translation
    unit (the launch still comes from the runner that includes it); closed, the file is read again."""
    from cudalint.config import Resolver
    from cudalint.engine import Workspace
    monkeypatch.chdir(ROOT)
    path = "samples/headers/saxpy_kernel.cuh"
    ws = Workspace(Resolver({}, jobs=1).run_config())
    text = (ROOT / path).read_text()
    guarded = text.replace("y[i] = a * x[i] + y[i];", "if (i < n) y[i] = a * x[i] + y[i];")
    assert guarded != text
    ws.open_buffer(path, guarded)
    assert ws.findings(path) == []
    assert [t.launch.known for t in ws.model(path)] == [True]
    ws.close_buffer(path)
    assert [d.code for d in ws.findings(path)] == ["CL202"] * 3
