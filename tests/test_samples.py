"""The functional test: every sample's findings equal its `// expect:` annotations, exactly; and
each finding in full (line, column, severity, code, message with its figures) equals the sample's
snapshot in tests/snapshots/samples (CUDALINT_UPDATE_SNAPSHOTS=1 rewrites them: review the diff)."""
import os
import re
from pathlib import Path

import pytest

from cudalint.lint import Config, lint_paths
from cudalint.report import RenderOptions, render

from conftest import SAMPLES, expected_findings, is_annotated, sample_files

_RESULT = {}


def _lint_all():
    # Samples are linted together so launches in one file reach kernels in another (.cuh headers).
    if "r" not in _RESULT:
        _RESULT["r"] = lint_paths([str(SAMPLES)], Config(debug=True))
    return _RESULT["r"]


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_findings_match_annotations(path):
    assert is_annotated(path), f"{path.name} has neither `// expect:` nor `// expect-clean`"
    result = _lint_all()
    got = {(d.line, d.code) for d in result.diagnostics
           if d.path == str(path) and d.severity in ("warning", "error")}
    assert got == expected_findings(path), "\n".join(
        f"{d.line}: {d.code} {d.message}" for d in result.diagnostics if d.path == str(path))


def test_there_are_enough_samples():
    files = sample_files()
    assert len(files) >= 24
    good = [p for p in files if "_good" in p.name]
    bad = [p for p in files if "_bad" in p.name]
    assert len(good) >= 10 and len(bad) >= 10


SNAPSHOTS = Path(__file__).resolve().parent / "snapshots" / "samples"


def _finding_lines(result, path) -> str:
    """The sample's findings as the concise format prints them, without the path: one line each,
    duplicates kept."""
    mine = [d for d in result.diagnostics if d.path == str(path)]
    part = type(result)(mine, [])
    text = render("concise", part, RenderOptions())
    return "".join(line.split(str(path) + ":", 1)[1] + "\n" for line in text.splitlines())


@pytest.mark.parametrize("path", sample_files(), ids=lambda p: str(p.relative_to(SAMPLES)))
def test_sample_findings_match_snapshot(path):
    got = _finding_lines(_lint_all(), path)
    snap = SNAPSHOTS / path.relative_to(SAMPLES).with_suffix(path.suffix + ".txt")
    if os.environ.get("CUDALINT_UPDATE_SNAPSHOTS") == "1":
        snap.parent.mkdir(parents=True, exist_ok=True)
        snap.write_text(got)
    assert snap.exists(), f"no snapshot {snap.name}: run with CUDALINT_UPDATE_SNAPSHOTS=1 and review it"
    assert got == snap.read_text()


def test_one_finding_per_cause_and_a_severity_word_on_every_line():
    result = _lint_all()
    at: dict = {}
    for d in result.diagnostics:
        at.setdefault((d.path, d.line, d.column, d.array), set()).add(d.code)
    assert not [k for k, codes in at.items() if {"CL101", "CL102"} <= codes]
    text = render("concise", result, RenderOptions())
    assert all(re.match(r"^.+?:\d+:\d+: (error|warning|info): CL\d{3} ", x) for x in text.splitlines())
