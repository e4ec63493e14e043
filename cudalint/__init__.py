"""cudalint: a static analyzer for CUDA kernels built on the two-tree table."""


def _version() -> str:
    # Written by setuptools-scm when the package is built or installed (read without importing
    # importlib.metadata, which costs a cold start about 20 ms); the installed distribution's
    # metadata otherwise (a checkout on PYTHONPATH beside an installed cudalint).
    try:
        from ._version import version
        return version
    except ImportError:
        pass
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("cudalint")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()
