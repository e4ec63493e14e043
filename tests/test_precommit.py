"""The pre-commit hook, run for real: `pre-commit try-repo` installs this repository into its own
environment and runs it on a throw-away git repository."""
import importlib.util
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT, SAMPLES


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
@pytest.mark.skipif(importlib.util.find_spec("pre_commit") is None,
                    reason="pre-commit is not installed (pip install pre-commit)")
def test_hook_fails_on_the_bad_kernel_and_skips_cpp(tmp_path):
    repo = tmp_path / "user-repo"
    repo.mkdir()
    (repo / "good.cu").write_text((SAMPLES / "matmul_naive_good.cu").read_text())
    (repo / "bad.cu").write_text((SAMPLES / "vecadd_bad.cu").read_text())
    # A kernel in a .cpp file that would be flagged if it were checked: identify gives .cpp no `cuda` type.
    (repo / "host.cpp").write_text((SAMPLES / "vecadd_bad.cu").read_text())
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t.invalid"]
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(git + ["add", "-A"], cwd=repo, check=True)
    p = subprocess.run([sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "cudalint", "--all-files", "--color", "never"],
                       cwd=repo, capture_output=True, text=True, timeout=600)
    out = p.stdout + p.stderr
    assert p.returncode == 1, out
    assert "cudalint" in out and "Failed" in out
    findings = [x for x in out.splitlines() if ": CL" in x]
    assert findings and all(x.startswith("bad.cu:7:") for x in findings), out
    assert "host.cpp" not in out and "good.cu:" not in out
