"""cudalint: a static analyzer for CUDA kernels built on the two-tree table."""

__version__ = "0.1.0"
