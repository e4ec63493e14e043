"""The wheel holds all of cudalint: every subpackage and data file the code reads is named in
pyproject.toml (the package list is explicit, so a new folder must be added there)."""
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _setuptools():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_subpackage_is_packaged():
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cudalint").rglob("__init__.py")}
    listed = set(_setuptools()["packages"])
    assert found <= listed, f"add to [tool.setuptools] packages: {sorted(found - listed)}"


def test_the_grammars_and_device_headers_are_package_data():
    st = _setuptools()
    grammars = ROOT / st["package-dir"]["cudalint.grammars"]
    assert sorted(p.name for p in grammars.glob("*.lark")) == ["annotations.lark", "index.lark"]
    assert "*.lark" in st["package-data"]["cudalint.grammars"]
    assert list((ROOT / "cudalint" / "confirm").glob("*.cuh"))
    assert "confirm/*.cuh" in st["package-data"]["cudalint"]
