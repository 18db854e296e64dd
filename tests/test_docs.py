"""The documentation keeps up with the code.

In the manner of datasette's ``tests/test_docs.py``: ``docs/hooks.md`` must
document every hook specification under a ``### name(arg, ...)`` heading whose
arguments are exactly the spec's parameters, in order, and must not document
a hook that does not exist. Every public function and class has a docstring.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

import ttr_core
from ttr_core import hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"
HOOKS_DOC = DOCS / "hooks.md"

# "### ttr_name(a, b)"; the argument list is optional here so that a hook
# heading written without one is caught rather than ignored.
HOOK_HEADING = re.compile(r"^###[ \t]+(ttr_\w+)[ \t]*(?:\((.*)\))?[ \t]*$", re.MULTILINE)
# A hook named in running text: `ttr_name` (but not `ttr_core.plugins`).
HOOK_MENTION = re.compile(r"`(ttr_\w+)(?:\([^`]*\))?`")
# Names in backticks that start with "ttr_" but are not hooks.
NOT_HOOKS = {"ttr_core", "ttr_plugins"}


def _spec_signatures() -> dict[str, tuple[str, ...]]:
    return {
        name: tuple(inspect.signature(function).parameters)
        for name, function in inspect.getmembers(hookspecs, inspect.isfunction)
        if name.startswith("ttr_")
    }


SPECS = _spec_signatures()


@pytest.fixture(scope="module")
def hooks_doc() -> str:
    if not HOOKS_DOC.is_file():
        pytest.skip(
            f"{HOOKS_DOC} not found: these tests run without the repository's docs/ "
            "folder (e.g. from an installed package), so the docs cannot be checked"
        )
    return HOOKS_DOC.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def documented(hooks_doc: str) -> dict[str, list[tuple[str, ...] | None]]:
    """Each hook heading in docs/hooks.md: name -> argument lists (None: no list)."""
    found: dict[str, list[tuple[str, ...] | None]] = {}
    for match in HOOK_HEADING.finditer(hooks_doc):
        name, args = match.group(1), match.group(2)
        parsed = None
        if args is not None:
            parsed = tuple(a.strip() for a in args.split(",")) if args.strip() else ()
        found.setdefault(name, []).append(parsed)
    return found


def test_hookspecs_are_found() -> None:
    assert SPECS, "no ttr_* functions found in ttr_core.hookspecs"
    for name, function in inspect.getmembers(hookspecs, inspect.isfunction):
        if name.startswith("ttr_"):
            assert hasattr(function, f"{hookspecs.PROJECT}_spec"), f"{name} is not a hookspec"


@pytest.mark.parametrize("hook", sorted(SPECS))
def test_hook_is_documented_with_its_signature(
    hook: str, documented: dict[str, list[tuple[str, ...] | None]]
) -> None:
    expected = SPECS[hook]
    heading = f"### {hook}({', '.join(expected)})"
    assert hook in documented, f"docs/hooks.md has no heading {heading!r}"
    assert len(documented[hook]) == 1, f"docs/hooks.md documents {hook} more than once"
    args = documented[hook][0]
    written = f"### {hook} with no argument list" if args is None else f"{hook}({', '.join(args)})"
    assert args == expected, f"docs/hooks.md has {written}; the spec is {heading[4:]!r}"


def test_no_unknown_hook_is_documented(
    documented: dict[str, list[tuple[str, ...] | None]],
) -> None:
    unknown = sorted(set(documented) - set(SPECS))
    assert not unknown, f"docs/hooks.md documents hooks that do not exist: {unknown}"


def test_no_unknown_hook_is_mentioned(hooks_doc: str) -> None:
    mentioned = {m.group(1) for m in HOOK_MENTION.finditer(hooks_doc)} - NOT_HOOKS
    unknown = sorted(mentioned - set(SPECS))
    assert not unknown, f"docs/hooks.md mentions hooks that do not exist: {unknown}"


def _public_functions_and_classes() -> list[str]:
    return [
        name
        for name in ttr_core.__all__
        if inspect.isfunction(getattr(ttr_core, name)) or inspect.isclass(getattr(ttr_core, name))
    ]


@pytest.mark.parametrize("name", _public_functions_and_classes())
def test_public_name_has_a_docstring(name: str) -> None:
    obj = getattr(ttr_core, name)
    # A class's own docstring only: inspect.getdoc would fall back to a base class's.
    doc = vars(obj).get("__doc__") if inspect.isclass(obj) else obj.__doc__
    assert doc and doc.strip(), f"ttr_core.{name} has no docstring"
