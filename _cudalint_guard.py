"""Run at interpreter start by cudalint-guard.pth (installed beside the package): `python -m cudalint`
imports cudalint as installed, never a `cudalint/` folder or `cudalint.py` of the current folder.

`python -m` puts the current folder first on sys.path, and the linted tree is a stranger's: its
`cudalint/__init__.py` would run before any of cudalint's own code could object (`python -P` and
PYTHONSAFEPATH avoid it, but nobody types them). The folder `-m` adds is passed over when the name
`cudalint` is looked for; the folders of the interpreter's own path (PYTHONPATH included: a
developer's `PYTHONPATH=$PWD python -m cudalint` still runs the work tree) are searched as usual.
Nothing is done for any other program.
"""
import sys


def _module_run() -> str | None:
    """The module `python -m` runs in this process, if any."""
    argv = list(getattr(sys, "orig_argv", ()))[1:]
    for i, a in enumerate(argv):
        if a == "-m":
            return argv[i + 1] if i + 1 < len(argv) else None
        if a.startswith("-m"):
            return a[2:]
        if a in ("-c", "-") or not a.startswith("-"):
            return None           # a script or a command: not `-m`
        if a in ("-W", "-X", "-Q"):   # options that take a value
            continue
    return None


class _InstalledCudalint:
    """Finds `cudalint` on the interpreter's own path and the other finders (an editable install's),
    never in the folder `-m` added; finds nothing else."""

    def __init__(self, startup_path):
        self.startup = set(startup_path)

    def find_spec(self, name, path=None, target=None):
        if name != "cudalint":
            return None
        from importlib.machinery import PathFinder
        spec = PathFinder.find_spec(name, [p for p in sys.path if p in self.startup])
        if spec is not None:
            return spec
        for finder in sys.meta_path:
            if finder is self or finder is PathFinder or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                return spec
        raise ModuleNotFoundError("cudalint is not installed (a `cudalint` in the current folder is not run: "
                                  "use PYTHONPATH to run one)", name=name)


def install() -> None:
    if sys.flags.safe_path:
        return
    module = _module_run()
    if module is None or module.split(".")[0] != "cudalint":
        return
    sys.meta_path.insert(0, _InstalledCudalint(sys.path))


install()
