"""The build step pyproject.toml cannot say: cudalint-guard.pth goes into site-packages beside the
package, in a wheel and in an editable install alike (_cudalint_guard.py says why)."""
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py

PTH = "cudalint-guard.pth"
HERE = os.path.dirname(os.path.abspath(__file__))


class BuildWithGuard(build_py):
    def run(self):
        super().run()
        self.copy_file(os.path.join(HERE, PTH), os.path.join(self.build_lib, PTH))

    def get_outputs(self, include_bytecode=1):
        return [*super().get_outputs(include_bytecode), os.path.join(self.build_lib, PTH)]


cmdclass = {"build_py": BuildWithGuard}
try:
    from setuptools.command.editable_wheel import editable_wheel

    class EditableWithGuard(editable_wheel):
        """An editable wheel holds the .pth files it installs in one folder: the guard joins them."""

        def _install_namespaces(self, installation_dir, pth_prefix):
            super()._install_namespaces(installation_dir, pth_prefix)
            shutil.copy(os.path.join(HERE, PTH), os.path.join(installation_dir, PTH))

    cmdclass["editable_wheel"] = EditableWithGuard
except ImportError:        # a setuptools without PEP 660 editable installs
    pass

setup(cmdclass=cmdclass)
