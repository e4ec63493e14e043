import os
import sys

# `python -m cudalint` puts the current directory first on sys.path, so a `cupy.py` or `numpy.py`
# in the linted tree would be imported and run. cudalint never imports from there: drop it before
# anything else is imported (`python -P` and PYTHONSAFEPATH do the same).
if not sys.flags.safe_path and sys.path and os.path.abspath(sys.path[0] or os.curdir) == os.getcwd():
    del sys.path[0]

from cudalint.cli import entry  # noqa: E402

entry()
