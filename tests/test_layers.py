"""The stages import downward only (DESIGN.md): cli on top, then the entry points, the engine, and
report -> rules -> analysis -> model -> index -> source -> preprocess. The contract is
pyproject.toml's [tool.importlinter]; imports inside functions count, since that is where a cycle
hides until the function runs."""
from pathlib import Path

from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parent.parent


def test_a_lower_layer_never_imports_a_higher_one():
    assert lint_imports(str(ROOT / "pyproject.toml"), no_cache=True) == 0
