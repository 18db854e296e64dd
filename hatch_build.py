"""The wheel's build hook (hatchling): the compiled parts of ttr-core.

1. **The native engine**, on by default: ``src/ttr_core/native/*.c``
   compiled (setuptools' ``build_ext``, in a subprocess) into the extension
   module :mod:`ttr_core.native._engine`, and the wheel tagged for this
   Python and platform. Without a C compiler (or the Python headers) the
   build says so in a warning and the wheel is pure Python; the
   pure-Python kernel then plays every game (``ttr_core.native.available``
   says which). ``TTR_CORE_NATIVE=0`` skips it; ``TTR_CORE_NATIVE=1``
   requires it, and a failure is an error.
2. **The mypyc kernel**, when asked: ``TTR_CORE_MYPYC=1 python -m pip
   install .`` has mypyc compile the rules kernel.
   The compiled modules sit next to their sources in the wheel, and Python
   imports an extension module before a source file of the same name.
   docs/performance.md says what it gains.

An editable install (``pip install -e .``) imports the package from
``src/``, so there the native engine is built in place, into
``src/ttr_core/native/`` (git-ignored); mypyc's modules are not (they would
hide the sources being edited).
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.config import BuilderConfig
from hatchling.builders.hooks.plugin.interface import BuildHookInterface

#: The native engine's package, relative to the project root: every C file in it
#: (``_engine.c``, the module, and its parts, sharing ``engine.h``) is compiled.
NATIVE_PACKAGE = "src/ttr_core/native"
#: The extension module it becomes.
NATIVE_MODULE = "ttr_core.native._engine"

#: The modules mypyc compiles, relative to the project root. The playout object
#: (search/playout.py) is no longer among them: it hands a game to the native
#: engine when it can, adopting the engine's copy in clone(), which a class
#: compiled by mypyc cannot (its __init__ checks every argument's type).
COMPILED = (
    "src/ttr_core/rules/kernel/legal.py",
    "src/ttr_core/rules/kernel/rules.py",
    "src/ttr_core/rules/kernel/work.py",
)
#: What mypyc needs in the build environment besides setuptools (it type-checks
#: the modules it compiles, so the runtime dependencies too).
MYPYC_DEPENDENCIES = ["mypy>=1.10", "attrs>=23.1", "cattrs>=23.2", "pluggy>=1.3"]

NATIVE_SETUP = """\
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class BuildExt(build_ext):
    def build_extensions(self):
        if self.compiler.compiler_type == "msvc":
            flags = ["/O2", "/std:c11"]
        else:
            flags = ["-O2", "-std=c11"]
        for extension in self.extensions:
            extension.extra_compile_args = flags
        super().build_extensions()


setup(
    name="ttr_core_native_engine",
    ext_modules=[Extension({module!r}, sources={sources!r})],
    cmdclass={{"build_ext": BuildExt}},
)
"""

MYPYC_SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="ttr_core_compiled_kernel",
    package_dir={{"": "src"}},
    ext_modules=mypycify({files!r}, opt_level="3", target_dir={target!r}),
)
"""


def _switch(name: str) -> str | None:
    """The environment variable ``name`` as ``"0"``, ``"1"`` or None (unset or empty)."""
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return None
    if value in {"0", "false", "no", "off"}:
        return "0"
    if value in {"1", "true", "yes", "on"}:
        return "1"
    raise ValueError(f"{name}={os.environ[name]!r}: set it to 1 or 0")


def _extensions(directory: Path) -> list[Path]:
    """The extension modules under ``directory``."""
    return sorted(directory.rglob("*.so")) + sorted(directory.rglob("*.pyd"))


def _reason(output: str) -> str:
    """A failed compiler run's output, in one short line."""
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    fatal = [line for line in lines if "fatal error" in line.lower()]
    errors = [line for line in lines if line.lower().startswith("error:")]
    other = [line for line in lines if "error" in line.lower()]
    chosen = fatal[:1] + errors[-1:] or other[-1:] or lines[-1:] or ["no output"]
    reason = "; ".join(dict.fromkeys(chosen))
    return reason if len(reason) <= 300 else reason[:297] + "..."


def _build_ext(script: str, cwd: Path, out: Path) -> subprocess.CompletedProcess[str]:
    """Run ``script`` (a setup.py) as ``build_ext`` in ``cwd``, building under ``out``."""
    setup = out / "setup.py"
    setup.write_text(script, "utf-8")
    command = [sys.executable, str(setup), "build_ext"]
    command += ["--build-lib", str(out / "lib"), "--build-temp", str(out / "tmp")]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)


class CompiledParts(BuildHookInterface[BuilderConfig]):
    """The native engine (by default) and the mypyc kernel (when asked) into the wheel."""

    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        # setuptools is in the hook's static dependencies (pyproject.toml);
        # mypy is fetched only for a build that asks for mypyc.
        return list(MYPYC_DEPENDENCIES) if _switch("TTR_CORE_MYPYC") == "1" else []

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel":
            return
        self._outs: list[Path] = []
        editable = version == "editable"
        native = _switch("TTR_CORE_NATIVE")
        built = False
        if native != "0":
            built = self._native(build_data, editable=editable, required=native == "1")
        else:
            self.app.display_info("ttr-core: TTR_CORE_NATIVE=0, the native engine is not built")
            if editable:
                self._remove_in_place()
        if _switch("TTR_CORE_MYPYC") == "1":
            if editable:
                self.app.display_warning(
                    "ttr-core: TTR_CORE_MYPYC=1 is ignored by an editable install (the kernel "
                    "is imported from src/); a regular `pip install .` compiles it"
                )
            else:
                built = self._mypyc(build_data) or built
        if built and not editable:
            build_data["pure_python"] = False
            build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        for out in getattr(self, "_outs", []):
            shutil.rmtree(out, ignore_errors=True)

    def _temporary(self, prefix: str) -> Path:
        """A directory outside the source tree, removed once the wheel is written."""
        out = Path(tempfile.mkdtemp(prefix=prefix))
        self._outs.append(out)
        return out

    def _remove_in_place(self) -> None:
        """An editable install without the engine: none left for this Python from an earlier one."""
        for suffix in importlib.machinery.EXTENSION_SUFFIXES:
            (Path(self.root) / NATIVE_PACKAGE / f"_engine{suffix}").unlink(missing_ok=True)

    def _native(self, build_data: dict[str, Any], *, editable: bool, required: bool) -> bool:
        """Compile the native engine; whether it was built (False: the pure-Python kernel)."""
        root = Path(self.root)
        out = self._temporary("ttr-core-native-")
        # Every C file of the package (the engine's module file and its parts).
        sources = sorted(str(path) for path in (root / NATIVE_PACKAGE).glob("*.c"))
        script = NATIVE_SETUP.format(module=NATIVE_MODULE, sources=sources)
        try:
            # Run outside the project: setuptools would read its pyproject.toml's [project].
            done = _build_ext(script, out, out)
            output = f"{done.stdout}\n{done.stderr}"
            failed = done.returncode != 0
        except OSError as error:  # the interpreter could not even be started
            output, failed = str(error), True
        built = [] if failed else _extensions(out / "lib")
        if len(built) != 1:
            reason = _reason(output) if failed else f"built {len(built)} modules, not 1: {built}"
            if required:
                raise RuntimeError(
                    f"ttr-core: the native engine could not be built (TTR_CORE_NATIVE=1 "
                    f"requires it): {reason}\n{output}"
                )
            self.app.display_warning(
                f"WARNING: ttr-core: no C compiler / the native engine could not be built: "
                f"{reason}; installing the pure-Python kernel"
            )
            if editable:
                self._remove_in_place()
            return False
        (path,) = built
        relative = path.relative_to(out / "lib")
        if editable:
            self._remove_in_place()
            # Copied beside, then renamed over: a running process keeps the file it mapped.
            target = root / "src" / relative
            partial = target.with_name(f".{target.name}.partial")
            shutil.copy2(path, partial)
            partial.replace(target)
            self.app.display_info(f"ttr-core: built the native engine in place, src/{relative}")
        else:
            build_data["force_include"][str(path)] = relative.as_posix()
            self.app.display_info(f"ttr-core: built the native engine, {relative.as_posix()}")
        return True

    def _mypyc(self, build_data: dict[str, Any]) -> bool:
        """Compile :data:`COMPILED` with mypyc and add the extension modules to the wheel."""
        out = self._temporary("ttr-core-mypyc-")
        script = MYPYC_SETUP.format(files=list(COMPILED), target=str(out / "c"))
        # In the project, as mypy reads its [tool.mypy] there.
        done = _build_ext(script, Path(self.root), out)
        if done.returncode:
            raise RuntimeError(f"mypyc could not compile the kernel:\n{done.stdout}\n{done.stderr}")
        built = _extensions(out / "lib")
        if len(built) < len(COMPILED):
            raise RuntimeError(f"mypyc built {len(built)} modules, not {len(COMPILED)}: {built}")
        for path in built:
            build_data["force_include"][str(path)] = path.relative_to(out / "lib").as_posix()
        return True
