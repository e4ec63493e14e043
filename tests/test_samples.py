"""The functional test: every sample's findings equal its `// expect:` annotations, exactly."""
import pytest

from cudalint.lint import Config, lint_paths

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
