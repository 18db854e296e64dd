"""The build compiles the native engine whenever it can, and installs without it
when it cannot (issue 35, ``hatch_build.py``).

Each test builds a wheel of this project as pip does (``pip wheel``, without
build isolation: hatchling and setuptools come from the test environment, the
``test`` extra, so nothing is fetched), unpacks it and imports it from there,
ahead of the installed ttr-core, in a fresh interpreter.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from importlib.util import find_spec
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: What setuptools compiles and links with (distutils' customize_compiler): all
#: of them a compiler that is not there.
NO_COMPILER = {name: "/nonexistent-cc" for name in ("CC", "CXX", "LDSHARED")}
WARNING = "ttr-core: no C compiler / the native engine could not be built"

pytestmark = pytest.mark.skipif(find_spec("pip") is None, reason="pip is not installed")


def build_wheel(out: Path, **env: str) -> tuple[Path, str]:
    """A wheel of the project built into ``out`` with ``env`` added; it and pip's output."""
    pytest.importorskip("hatchling", reason="the test extra's build backend")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("TTR_CORE_")}
    environment |= {"PIP_DISABLE_PIP_VERSION_CHECK": "1", **env}
    command = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-index"]
    command += ["--no-build-isolation", "-w", str(out), str(ROOT)]
    done = subprocess.run(
        command, capture_output=True, text=True, env=environment, timeout=240, check=False
    )
    output = f"{done.stdout}\n{done.stderr}"
    assert done.returncode == 0, output
    (wheel,) = out.glob("*.whl")
    return wheel, output


def run_from(wheel: Path, where: Path, code: str) -> str:
    """``code`` run by this Python with ``wheel`` unpacked first on its path; its output."""
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(where)
    environment = dict(os.environ)
    environment["PYTHONPATH"] = os.pathsep.join(
        [str(where), *filter(None, [os.environ.get("PYTHONPATH")])]
    )
    check = f"import ttr_core; assert ttr_core.__file__.startswith({str(where)!r}); {code}"
    done = subprocess.run(
        [sys.executable, "-c", check],
        capture_output=True,
        text=True,
        env=environment,
        cwd=where,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def extensions(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return [n for n in archive.namelist() if n.endswith((".so", ".pyd"))]


def test_without_a_compiler_the_wheel_is_pure_python_and_plays(tmp_path: Path) -> None:
    wheel, output = build_wheel(tmp_path / "dist", **NO_COMPILER)
    assert WARNING in output
    assert "installing the pure-Python kernel" in output
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    assert extensions(wheel) == []
    printed = run_from(
        wheel,
        tmp_path / "unpacked",
        "import ttr_core.native as n; print(n.available); "
        "ttr_core.random_playout('newyork', 2, seed=1); print('played')",
    )
    assert printed.split() == ["False", "played"]


@pytest.mark.skipif(
    shutil.which("cc") is None and shutil.which("gcc") is None, reason="no C compiler"
)
def test_with_a_compiler_the_wheel_carries_the_native_engine(tmp_path: Path) -> None:
    wheel, output = build_wheel(tmp_path / "dist")
    assert WARNING not in output
    _, _, python, abi, platform = wheel.name.removesuffix(".whl").split("-")
    assert platform != "any" and abi != "none", wheel.name
    if sys.implementation.name == "cpython":
        assert python == f"cp{sys.version_info.major}{sys.version_info.minor}", wheel.name
    built = extensions(wheel)
    assert [n.rpartition("/")[0] for n in built] == ["ttr_core/native"], built
    assert built[0].rpartition("/")[2].startswith("_engine."), built
    with zipfile.ZipFile(wheel) as archive:
        (info,) = [n for n in archive.namelist() if n.endswith(".dist-info/WHEEL")]
        assert "Root-Is-Purelib: false" in archive.read(info).decode()
    printed = run_from(
        wheel,
        tmp_path / "unpacked",
        "import ttr_core.native as n; print(n.available, n._engine.__name__, n._engine.__file__); "
        "ttr_core.random_playout('newyork', 2, seed=1); print('played')",
    )
    available, name, path, played = printed.split()
    assert (available, name, played) == ("True", "ttr_core.native._engine", "played")
    assert Path(path) == tmp_path / "unpacked" / built[0]
