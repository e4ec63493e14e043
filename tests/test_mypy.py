"""mypy over the package, with the configuration in pyproject.toml ([tool.mypy]): a type error of a
kind a module did not have when the check was added fails the suite (skipped where mypy is not
installed: `pip install .[test]` installs it)."""
import pytest

from conftest import ROOT

mypy_api = pytest.importorskip("mypy.api")


def test_package_type_checks(monkeypatch):
    monkeypatch.chdir(ROOT)
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"), "--no-error-summary"])
    assert status == 0, out + err
