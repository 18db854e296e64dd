"""What the wheel installs (issue 22, finding 6): top-level packages under the
project's own name only, so that installing ttr-core can never clash with
another distribution's package (the built-in plugins were a generic
``ttr_plugins``), and every built-in variant registered from them."""

from __future__ import annotations

import tomllib
from importlib.metadata import entry_points
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_wheel_installs_packages_under_the_projects_name_only() -> None:
    packages = PROJECT["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    names = [Path(p).name for p in packages]
    assert names == ["ttr_core", "ttr_core_plugins"]
    for path in packages:
        assert (ROOT / path / "__init__.py").is_file(), path


def test_every_built_in_variant_comes_from_the_plugins_package() -> None:
    declared = PROJECT["project"]["entry-points"]["ttr_core.plugins"]
    assert declared and all(v.startswith("ttr_core_plugins.") for v in declared.values())
    modules = {p.stem for p in (ROOT / "plugins" / "ttr_core_plugins").glob("*.py")} - {"__init__"}
    assert {v.rsplit(".", 1)[1] for v in declared.values()} == modules
    installed = {ep.name: ep.value for ep in entry_points(group="ttr_core.plugins")}
    assert {k: installed.get(k) for k in declared} == declared
