"""The documentation keeps up with the code.

In the manner of datasette's ``tests/test_docs.py``: ``docs/hooks.md`` must
document every hook specification under a ``### name(arg, ...)`` heading whose
arguments are exactly the spec's parameters, in order, and must not document
a hook that does not exist. Every public function and class has a docstring.
"""

from __future__ import annotations

import inspect
import re
import warnings
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core.hooks import specs as hookspecs

DOCS = Path(__file__).resolve().parents[1] / "docs"
HOOKS_DOC = DOCS / "hooks.md"

# "### ttr_name(a, b)"; the argument list is optional here so that a hook
# heading written without one is caught rather than ignored.
HOOK_HEADING = re.compile(r"^###[ \t]+(ttr_\w+)[ \t]*(?:\((.*)\))?[ \t]*$", re.MULTILINE)
# A hook named in running text: `ttr_name` (but not `ttr_core.plugins`).
HOOK_MENTION = re.compile(r"`(ttr_\w+)(?:\([^`]*\))?`")
# Names in backticks that start with "ttr_" but are not hooks.
NOT_HOOKS = {"ttr_core", "ttr_core_plugins"}


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
    assert SPECS, "no ttr_* functions found in ttr_core.hooks.specs"
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


# ---------------------------------------------------------------------------
# docs/api.md: the stable API, stated once
# ---------------------------------------------------------------------------

API_DOC = DOCS / "api.md"
# "### name" or "### name(a, b)" (a name may stand in backticks).
API_HEADING = re.compile(r"^###[ \t]+`?(\w+)`?[ \t]*(?:\((.*)\))?[ \t]*$", re.MULTILINE)
# A member row of a table: "| `name` |" or "| `name(a, b)` |".
MEMBER_ROW = re.compile(r"^\|[ \t]*`(\w+)(?:\(([^)`]*)\))?`[ \t]*\|", re.MULTILINE)


@pytest.fixture(scope="module")
def api_doc() -> str:
    if not API_DOC.is_file():
        pytest.skip(f"{API_DOC} not found: the docs are checked from a repository checkout")
    return API_DOC.read_text(encoding="utf-8")


def _args(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    return tuple(a.strip() for a in text.split(",")) if text.strip() else ()


@pytest.fixture(scope="module")
def api_sections(api_doc: str) -> dict[str, tuple[tuple[str, ...] | None, str]]:
    """Each ``###`` section of docs/api.md: name -> (argument list or None, body)."""
    sections: dict[str, tuple[tuple[str, ...] | None, str]] = {}
    matches = list(API_HEADING.finditer(api_doc))
    for i, match in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(api_doc)
        name = match.group(1)
        assert name not in sections, f"docs/api.md documents {name} twice"
        sections[name] = (_args(match.group(2)), api_doc[match.end() : end])
    return sections


def _parameters(obj: object) -> tuple[str, ...]:
    return tuple(inspect.signature(obj).parameters)  # type: ignore[arg-type]


def test_every_public_name_is_on_the_stable_api_page(api_sections: dict[str, Any]) -> None:
    missing = [name for name in ttr_core.__all__ if name not in api_sections]
    assert not missing, f"docs/api.md has no section for {missing}"
    unknown = [name for name in api_sections if name not in ttr_core.__all__]
    assert not unknown, f"docs/api.md documents names that are not public: {unknown}"


@pytest.mark.parametrize("name", sorted(ttr_core.__all__))
def test_stable_api_signatures_match_the_code(name: str, api_sections: dict[str, Any]) -> None:
    args, _ = api_sections[name]
    obj = getattr(ttr_core, name)
    if inspect.isfunction(obj) or (inspect.isclass(obj) and args is not None):
        assert args == _parameters(obj), f"docs/api.md: {name}{args} vs {inspect.signature(obj)}"


@pytest.mark.parametrize(
    "name", sorted(n for n in ttr_core.__all__ if inspect.isclass(getattr(ttr_core, n)))
)
def test_every_member_listed_exists(name: str, api_sections: dict[str, Any]) -> None:
    cls = getattr(ttr_core, name)
    _, body = api_sections[name]
    fields = {f.name for f in attrs.fields(cls)} if attrs.has(cls) else set()
    instance_attrs = {
        *("reason", "message", "problems", "variant", "hook", "path"),
        *("expected", "actual"),
    }
    for match in MEMBER_ROW.finditer(body):
        member, args = match.group(1), _args(match.group(2))
        if name == "MapRules" or (args is None and member in fields):
            assert member in fields, f"MapRules has no field {member}"
            continue
        if issubclass(cls, Exception) and member in instance_attrs:
            continue
        assert hasattr(cls, member), f"docs/api.md lists {name}.{member}, which does not exist"
        if args is not None:
            method = getattr(cls, member)
            # A classmethod's signature, taken from the class, has no ``cls``.
            bound = isinstance(inspect.getattr_static(cls, member), classmethod)
            expected = _parameters(method) if bound else _parameters(method)[1:]
            assert args == expected, f"{name}.{member}{args}"


def test_maprules_table_lists_every_field(api_sections: dict[str, Any]) -> None:
    _, body = api_sections["MapRules"]
    listed = {m.group(1) for m in MEMBER_ROW.finditer(body)}
    assert listed == {f.name for f in attrs.fields(ttr_core.MapRules)}


def test_hooks_doc_uses_only_stable_state_members(
    hooks_doc: str, api_sections: dict[str, Any]
) -> None:
    stable = {
        cls: {m.group(1) for m in MEMBER_ROW.finditer(api_sections[cls][1])}
        for cls in ("GameState", "GameRules", "Board")
    }
    for match in re.finditer(r"\bstate\.(\w+)(?:\.(\w+))?", hooks_doc):
        member, sub = match.group(1), match.group(2)
        assert member in stable["GameState"], f"hooks.md uses state.{member}, not in docs/api.md"
        if member == "rules" and sub:
            assert sub in stable["GameRules"], f"hooks.md uses state.rules.{sub}"
        if member == "board" and sub:
            assert sub in stable["Board"], f"hooks.md uses state.board.{sub}"


def test_the_stable_surface_is_stated_once() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    assert "Stable read access" not in index
    assert "api.md" in index
    doc = ttr_core.GameState.__doc__ or ""
    assert "docs/api.md" in doc and "Stable read access" not in doc


EFFECT_ROW = re.compile(r"^\|[ \t]*`(\w+)\(([^)`]*)\)`[ \t]*\|", re.MULTILINE)


def test_the_effect_helpers_table_matches_the_code(hooks_doc: str) -> None:
    from ttr_core import effects

    rows = {
        m.group(1): m.group(2)
        for m in EFFECT_ROW.finditer(hooks_doc)
        if m.group(1) in effects.__all__
    }
    assert set(rows) == set(effects.__all__), "docs/hooks.md's effect table lists every helper"
    for name, written in rows.items():
        function = getattr(effects, name)
        assert function.__doc__, f"effects.{name} has no docstring"
        names = [a.split("=")[0].strip() for a in written.split(",") if a.strip() != "*"]
        assert tuple(names) == _parameters(function), f"hooks.md: {name}({written})"


def test_the_play_screens_page_is_current() -> None:
    """docs/play-screens.md is what scripts/play_screens.py writes now: the
    screens of every map as ttr play prints them (issue 34)."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "play_screens.py"
    spec = importlib.util.spec_from_file_location("play_screens", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        written = module.page()
    assert module.PAGE.read_text(encoding="utf-8") == written, (
        "docs/play-screens.md is out of date: run python scripts/play_screens.py"
    )
