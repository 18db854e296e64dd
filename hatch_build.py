"""The optional compiled kernel: a hatchling build hook that has mypyc compile
the rules kernel and the playout object into the wheel.

Off by default (``enable-by-default = false`` in pyproject.toml); asked for with

    HATCH_BUILD_HOOK_ENABLE_CUSTOM=1 python -m pip install .

The compiled modules sit next to their sources in the wheel, and Python
imports an extension module before a source file of the same name. The
pure-Python wheel stays the default; docs/performance.md says what the
compiled one gains.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The modules compiled, relative to the project root.
COMPILED = (
    "src/ttr_core/rules/kernel/legal.py",
    "src/ttr_core/rules/kernel/rules.py",
    "src/ttr_core/rules/kernel/work.py",
    "src/ttr_core/search/playout.py",
)

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="ttr_core_compiled_kernel",
    package_dir={{"": "src"}},
    ext_modules=mypycify({files!r}, opt_level="3", target_dir={target!r}),
)
"""


class CompiledKernel(BuildHookInterface):
    """Compile :data:`COMPILED` with mypyc and add the extension modules to the wheel."""

    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        root = Path(self.root)
        # Outside the source tree, removed once the wheel is written (finalize).
        out = self._out = Path(tempfile.mkdtemp(prefix="ttr-core-mypyc-"))
        setup = out / "setup.py"
        setup.write_text(SETUP.format(files=list(COMPILED), target=str(out / "c")), "utf-8")
        command = [sys.executable, str(setup), "build_ext"]
        command += ["--build-lib", str(out / "lib"), "--build-temp", str(out / "tmp")]
        done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
        if done.returncode:
            raise RuntimeError(f"mypyc could not compile the kernel:\n{done.stdout}\n{done.stderr}")
        built = sorted((out / "lib").rglob("*.so")) + sorted((out / "lib").rglob("*.pyd"))
        if len(built) < len(COMPILED):
            raise RuntimeError(f"mypyc built {len(built)} modules, not {len(COMPILED)}: {built}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out / "lib").as_posix()
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "_out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
