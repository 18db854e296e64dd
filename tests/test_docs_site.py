"""The documentation site keeps up with the pages and the code, without MkDocs.

``mkdocs build --strict`` (``nox -s docs``) checks links and anchors; these
tests check what it cannot, quickly and with the test dependencies alone:

- every page under ``docs/`` is in the nav of ``mkdocs.yml``, and every page
  in the nav exists;
- the API reference covers every name of ``ttr_core.__all__``, and each of
  its ``::: target`` directives names a module or object that exists;
- ``docs/tutorial.md`` is true to the example package it follows: each code
  block it quotes is in the package verbatim, its examples run and print
  what their comments say, its ``ttr`` commands print what it shows, and its
  table of hooks is exactly the plugin's hook implementations.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import io
import re
import shlex
from pathlib import Path
from types import ModuleType

import pytest

import ttr_core
from ttr_core import cli

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
MKDOCS = ROOT / "mkdocs.yml"
REFERENCE = DOCS / "reference"
TUTORIAL = DOCS / "tutorial.md"
EXAMPLE = DOCS / "examples" / "ttr-example-variant"

#: A fenced code block: its language and its text.
FENCE = re.compile(r"^```(?P<lang>\w*)\n(?P<code>.*?)^```$", re.MULTILINE | re.DOTALL)
#: A page in the nav: ``- Title: page.md`` or ``- page.md``.
NAV_PAGE = re.compile(r"^\s*-\s+(?:[^\n]*?:\s+)?(?P<page>[\w./-]+\.md)\s*$", re.MULTILINE)
#: An mkdocstrings directive: ``::: ttr_core.name``.
DIRECTIVE = re.compile(r"^:::\s+(?P<target>[\w.]+)\s*$", re.MULTILINE)
#: ``print(...)  # what it prints`` in an example.
PRINTED = re.compile(r"^\s*print\(.*\)  # (?P<output>.*)$", re.MULTILINE)


@pytest.fixture(scope="module")
def mkdocs_yml() -> str:
    if not MKDOCS.is_file():
        pytest.skip(f"{MKDOCS} not found: the tests run outside a checkout, without the site")
    return MKDOCS.read_text(encoding="utf-8")


def _nav_pages(config: str) -> set[str]:
    """The pages listed under ``nav:`` (a top-level key, up to the next one)."""
    match = re.search(r"^nav:\n(?P<nav>(?:[ \t]+.*\n|\n)*)", config, re.MULTILINE)
    assert match, "mkdocs.yml has no nav"
    return {m["page"] for m in NAV_PAGE.finditer(match["nav"])}


def _site_pages() -> set[str]:
    """The Markdown pages the site renders: everything under docs/ but the example
    package, of which only its walk-through (README.md) is a page."""
    pages = set()
    for path in DOCS.rglob("*.md"):
        page = path.relative_to(DOCS).as_posix()
        if page.startswith("examples/") and page != "examples/ttr-example-variant/README.md":
            continue
        pages.add(page)
    return pages


def test_every_page_is_in_the_nav_and_every_nav_entry_is_a_page(mkdocs_yml: str) -> None:
    nav = _nav_pages(mkdocs_yml)
    assert len(nav) > 20
    assert sorted(_site_pages() - nav) == [], "pages missing from the nav of mkdocs.yml"
    assert sorted(nav - _site_pages()) == [], "the nav of mkdocs.yml lists pages that do not exist"


# ---------------------------------------------------------------------------
# The API reference
# ---------------------------------------------------------------------------


def _directives(page: Path) -> list[str]:
    return [m["target"] for m in DIRECTIVE.finditer(page.read_text(encoding="utf-8"))]


def _resolve(target: str) -> object:
    """The object a directive documents, found the way griffe does: the longest
    importable module prefix, then attributes. Optional extras (pyspiel,
    pettingzoo) are not needed: a module is only located, never imported."""
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        module_name = ".".join(parts[:cut])
        try:
            spec = importlib.util.find_spec(module_name)
        except ModuleNotFoundError:  # a prefix that is a module, not a package
            spec = None
        if spec is None:
            continue
        if cut == len(parts):
            return module_name  # a whole module: that it exists is enough
        obj: object = importlib.import_module(module_name)
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj
    raise LookupError(target)


def test_the_reference_documents_every_public_name() -> None:
    documented = [_resolve(target) for target in _directives(REFERENCE / "ttr_core.md")]
    missing = [
        name
        for name in ttr_core.__all__
        if name not in {"effects", "__version__"}  # a page of its own; a string
        and not any(getattr(ttr_core, name) is obj for obj in documented)
    ]
    assert missing == []
    assert "ttr_core.effects" in _directives(REFERENCE / "effects.md")


def test_every_reference_directive_names_something_that_exists() -> None:
    pages = sorted(REFERENCE.glob("*.md"))
    assert len(pages) >= 10
    for page in pages:
        targets = _directives(page)
        assert targets, f"{page.name} documents nothing"
        for target in targets:
            assert target.startswith("ttr_core"), target
            try:
                _resolve(target)
            except (LookupError, AttributeError):
                pytest.fail(f"{page.name}: ::: {target} names nothing")


# ---------------------------------------------------------------------------
# The tutorial follows the example package
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tutorial() -> list[tuple[str, str]]:
    """The tutorial's code blocks: (language, code)."""
    return [(m["lang"], m["code"]) for m in FENCE.finditer(TUTORIAL.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def plugin() -> ModuleType:
    try:
        return importlib.import_module("ttr_example_variant")
    except ModuleNotFoundError:
        pytest.fail(f"the example package is not installed: pip install {EXAMPLE}")


def _runnable(code: str) -> bool:
    """An example to run (the convention of the example's own README), not a quote."""
    return code.startswith("import ttr_core")


def test_quoted_code_is_the_example_packages_own(tutorial: list[tuple[str, str]]) -> None:
    sources = {
        "python": [path.read_text(encoding="utf-8") for path in EXAMPLE.rglob("*.py")],
        "toml": [(EXAMPLE / "pyproject.toml").read_text(encoding="utf-8")],
    }
    quoted = [(lang, code) for lang, code in tutorial if lang in sources and not _runnable(code)]
    assert len(quoted) > 15
    for lang, code in quoted:
        assert any(code in source for source in sources[lang]), (
            f"docs/tutorial.md quotes {lang} that is not in the example package:\n{code}"
        )


def test_the_layout_shown_is_the_packages(tutorial: list[tuple[str, str]]) -> None:
    (tree,) = [code for lang, code in tutorial if lang == "text" and "├──" in code]
    names = re.findall(r"[\w-]+(?:\.\w+)+", tree)
    assert "pyproject.toml" in names and "__init__.py" in names
    present = {path.name for path in EXAMPLE.rglob("*")}
    assert sorted(set(names) - present) == []


def test_the_examples_run_and_print_what_they_say(
    tutorial: list[tuple[str, str]], plugin: ModuleType
) -> None:
    examples = [code for lang, code in tutorial if lang == "python" and _runnable(code)]
    assert len(examples) >= 3
    for code in examples:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, str(TUTORIAL), "exec"), {})
        expected = [m["output"] for m in PRINTED.finditer(code)]
        assert out.getvalue().splitlines() == expected, code


def _run_ttr(command: str) -> list[str]:
    """What ``ttr ...`` prints (standard output and error), run in this process."""
    argv = shlex.split(command)
    assert argv[0] == "ttr", command
    out = io.StringIO()
    # SystemExit: bad input ends in argparse's usage error.
    with (
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(out),
        contextlib.suppress(SystemExit),
    ):
        cli.main(argv[1:])
    return out.getvalue().splitlines()


def _in_order(expected: list[str], actual: list[str]) -> bool:
    """Whether ``expected`` are lines of ``actual``, in order (gaps allowed)."""
    rest = iter(actual)
    return all(line in rest for line in expected)


def test_the_commands_print_what_the_tutorial_shows(
    tutorial: list[tuple[str, str]], plugin: ModuleType
) -> None:
    sessions = [code for lang, code in tutorial if lang == "console"]
    assert len(sessions) >= 4
    for session in sessions:
        command, *shown = session.splitlines()
        assert command.startswith("$ "), session
        expected = [line for line in shown if line != "..."]  # "...": lines left out
        actual = _run_ttr(command[2:])
        assert _in_order(expected, actual), f"{command}\nprints:\n" + "\n".join(actual)


def test_the_hook_table_is_the_plugins_hooks(plugin: ModuleType) -> None:
    text = TUTORIAL.read_text(encoding="utf-8")
    table = [line for line in text.splitlines() if line.startswith("| `ttr_")]
    listed = {name for line in table for name in re.findall(r"`(ttr_\w+)`", line.split("|")[1])}
    implemented = {
        name
        for name, function in inspect.getmembers(plugin, inspect.isfunction)
        if hasattr(function, "ttr_core_impl")  # pluggy's mark of a hookimpl
    }
    assert len(implemented) > 5
    assert listed == implemented
