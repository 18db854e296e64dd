"""The layout is the one docs/architecture.md describes (issue 31): the page names
every module under src/, the package has no import circle, no module is over
800 lines, and every documented import path works."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import ttr_core

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "ttr_core"
PAGE = ROOT / "docs" / "architecture.md"
#: The most lines a module has (docs/architecture.md says why a long one reads best whole).
MAX_LINES = 800


def modules() -> list[Path]:
    return sorted(p.relative_to(PACKAGE) for p in PACKAGE.rglob("*.py"))


def named(path: Path, page: str) -> bool:
    """The page names ``path``: as ``dir/file.py``, or on the row of its folder."""
    if f"`{path.as_posix()}`" in page:
        return True
    folder = path.parent.as_posix() + "/"
    return any(
        f"`{folder}`" in line or f"**`{folder}`**" in line
        for line in page.splitlines()
        if f"`{path.name}`" in line
    )


def test_the_architecture_page_names_every_module() -> None:
    page = PAGE.read_text(encoding="utf-8")
    missing = [str(p) for p in modules() if p.name != "__init__.py" and not named(p, page)]
    packages = sorted({p.parent for p in modules() if p.parent != Path(".")})
    missing += [f"{p}/" for p in packages if f"`{p.as_posix()}/`" not in page]
    assert not missing, f"docs/architecture.md does not name: {missing}"


def test_no_module_is_over_800_lines() -> None:
    long = {
        str(p): n
        for p in modules()
        if (n := len((PACKAGE / p).read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long, long


def _imports(path: Path, module: str) -> set[str]:
    """The ttr_core modules ``module`` (file ``path``) imports, wherever in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join(parts + ([base] if base else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)
    return {name for name in found if name.startswith("ttr_core")}


def test_no_import_circle_among_the_modules() -> None:
    names = {}
    for p in modules():
        parts = ["ttr_core", *p.with_suffix("").parts]
        if parts[-1] == "__init__":
            parts = parts[:-1]
        names[".".join(parts)] = PACKAGE / p
    graph = {}
    for module, path in names.items():
        targets = set()
        for name in _imports(path, module):
            while name and name not in names:
                name = name.rpartition(".")[0]
            # A package importing its own submodules (its face) is no circle.
            if name and name != module and not name.startswith(module + ".") and name != "ttr_core":
                targets.add(name)
        graph[module] = targets
    # Tarjan's strongly connected components.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                circles.append(sorted(part))

    for v in graph:
        if v not in index:
            visit(v)
    assert not circles, circles


# -- every documented import path works ---------------------------------------------------

DOCS = ROOT / "docs"
DOTTED = re.compile(r"\bttr_core(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
#: Dotted names in the docs that are not import paths: entry-point groups, the
#: installed maps folder, a record's version key.
NOT_PATHS = {"ttr_core.plugins", "ttr_core.maps", "ttr_core.omitted_at_default"}


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj: object = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        try:
            for name in parts[cut:]:
                obj = getattr(obj, name)
        except AttributeError:
            return False
        return True
    return False


def _documented() -> list[tuple[str, str]]:
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for dotted in sorted(set(DOTTED.findall(page.read_text(encoding="utf-8")))):
            if (
                dotted not in NOT_PATHS
                and not dotted.startswith("ttr_core.plugins.")
                and dotted.rpartition(".")[2] not in ("md", "toml", "json", "py")  # file names
            ):
                found.append((page.relative_to(ROOT).as_posix(), dotted))
    return found


@pytest.mark.parametrize(("page", "dotted"), _documented())
def test_every_documented_import_path_works(page: str, dotted: str) -> None:
    assert _resolves(dotted), f"{page} names {dotted}, which does not import"


def test_every_name_of_the_stable_api_page_imports() -> None:
    api = (DOCS / "api.md").read_text(encoding="utf-8")
    headings = re.findall(r"^###[ \t]+`?([A-Za-z_][A-Za-z0-9_]*)", api, re.MULTILINE)
    missing = [name for name in headings if not hasattr(ttr_core, name)]
    assert not missing and len(headings) > 100, missing
