"""Every install line works from a clone, and the changelog the site shows is CHANGELOG.md.

ttr-core is not on the package index yet, so ``pip install 'ttr-core[openspiel]'``
fails ("No matching distribution found"). Each ``pip install`` the documentation
(README.md, CHANGELOG.md, docs/**/*.md) or a message of the code (src/, plugins/)
gives must install ttr-core and the example variant from a path of the clone
(``pip install '.[openspiel]'``, ``pip install . ./docs/examples/ttr-example-variant``)
or by a direct reference (``ttr-core[x] @ file:///...``), with extras the package
declares. The only index form allowed is one that says it waits for a release:
``pip install 'ttr-core[dask]' once it is on the package index``.
"""

from __future__ import annotations

import re
import shlex
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "docs/examples/ttr-example-variant"
# Distributions of this repository: never on the package index (yet).
OURS = {"ttr-core", "ttr-example-variant"}
# A path the tutorial's reader makes (their own copy of the example's folder).
READERS_PATHS = {"./ttr-example-variant"}
# What may follow an index install of ours: the line says it waits for a release.
WAITS = "once it is on the package index"

# "pip install ARGS": ARGS end at a backtick, a comment, a shell operator, a
# closing parenthesis or the end of the line (and, in Python source, at the
# end of a string literal).
COMMAND = re.compile(r"pip install ")
END_MD = re.compile(r"`|#|&&|;|\)|$", re.MULTILINE)
END_PY = re.compile(r"`|#|&&|;|\)|\"|$", re.MULTILINE)
# Words that end the arguments of a command quoted in running text.
PROSE = {"in", "at", "once", "from", "or", "and", "then", "first", "for", "to", "the", "of"}
REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[([^\]]*)\])?\s*(.*)$")
PATH_EXTRAS = re.compile(r"^(.*?)(?:\[([^\]]*)\])?$")


def _extras(project: Path) -> set[str]:
    data = tomllib.loads((project / "pyproject.toml").read_text(encoding="utf-8"))
    return set(data["project"].get("optional-dependencies", {}))


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _arguments(text: str) -> list[str]:
    """The arguments of one quoted command, up to the first word of prose."""
    try:
        tokens = shlex.split(text)
    except ValueError:  # an unbalanced quote: take the words as they are
        tokens = text.split()
    args: list[str] = []
    for token in tokens:
        bare = token.rstrip(",:")
        if not bare or bare.startswith("(") or bare.lower() in PROSE:
            break
        args.append(bare)
    return args


def install_problems(text: str, *, python: bool = False) -> list[str]:
    """What is wrong with each ``pip install`` in ``text`` (empty: every one works)."""
    end = END_PY if python else END_MD
    problems: list[str] = []
    for match in COMMAND.finditer(text):
        stop = end.search(text, match.end())
        assert stop is not None  # "$" always matches
        quoted = text[match.end() : stop.start()]
        args = _arguments(quoted)
        rest = quoted
        for arg in args:
            rest = rest.split(arg, 1)[-1] if arg in rest else rest
        line = text[match.start() : stop.start()].strip()
        if not args:
            problems.append(f"{line!r}: installs nothing")
        for arg in args:
            problem = _argument_problem(arg, waits=rest.strip(" '\"").startswith(WAITS))
            if problem:
                problems.append(f"{line!r}: {problem}")
    return problems


def _argument_problem(arg: str, *, waits: bool) -> str | None:
    if arg.startswith("-"):
        return None  # an option: -e, --no-deps, -m ...
    if " @ " in arg:  # a direct reference: ttr-core[x] @ file:///path
        return None if "://" in arg.split(" @ ", 1)[1] else f"{arg!r}: not a URL after @"
    if arg.startswith((".", "/", "~")) or "/" in arg:
        path, extras = PATH_EXTRAS.match(arg).groups()  # type: ignore[union-attr]
        if path in READERS_PATHS:
            return None
        folder = (ROOT / path).resolve()
        if not (folder / "pyproject.toml").is_file():
            return f"{path!r} is no project folder of the clone"
        unknown = {e.strip() for e in (extras or "").split(",") if e.strip()} - _extras(folder)
        return f"{arg!r}: no extra {sorted(unknown)} in {path}" if unknown else None
    requirement = REQUIREMENT.match(arg)
    if requirement is None:
        return f"{arg!r} is neither a path nor a requirement"
    if _normal(requirement.group(1)) in OURS and not waits:
        return (
            f"{arg!r} is looked up on the package index, where it is not: "
            "install from the clone ('.[extra]' at its root)"
        )
    return None


def _documents() -> Iterator[Path]:
    yield ROOT / "README.md"
    if (ROOT / "CHANGELOG.md").is_file():
        yield ROOT / "CHANGELOG.md"
    yield from sorted((ROOT / "docs").rglob("*.md"))


def _sources() -> Iterator[Path]:
    for folder in ("src", "plugins"):
        yield from sorted((ROOT / folder).rglob("*.py"))


@pytest.fixture(scope="module", autouse=True)
def _repository() -> None:
    if not (ROOT / "docs").is_dir() or not (ROOT / "pyproject.toml").is_file():
        pytest.skip("needs the repository's docs/ and pyproject.toml (run from a clone)")


def test_every_install_line_of_the_docs_works_from_a_clone() -> None:
    problems = [
        f"{path.relative_to(ROOT)}: {problem}"
        for path in _documents()
        for problem in install_problems(path.read_text(encoding="utf-8"))
    ]
    assert not problems, "\n".join(problems)


def test_every_install_message_of_the_code_works_from_a_clone() -> None:
    problems = [
        f"{path.relative_to(ROOT)}: {problem}"
        for path in _sources()
        for problem in install_problems(path.read_text(encoding="utf-8"), python=True)
    ]
    assert not problems, "\n".join(problems)


def test_the_docs_say_how_to_install_the_example_beside_a_local_ttr_core() -> None:
    # The example requires ttr-core>=0.1: alone in a fresh environment pip looks
    # it up on the index and fails; in one command with the clone it works.
    walk_through = (ROOT / EXAMPLE / "README.md").read_text(encoding="utf-8")
    assert re.search(r"pip install '?\.(\[[a-z,]+\])?'? \./" + re.escape(EXAMPLE), walk_through)
    assert "ttr-core>=0.1" in (ROOT / EXAMPLE / "pyproject.toml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "line",
    [
        "pip install 'ttr-core[openspiel]'",
        'pip install "ttr-core[testing]"     # the kit needs hypothesis',
        "`pip install ttr-core[testing]`",
        "pip install ttr-core",
        "pip install -e ttr_core",
        "pip install ttr-example-variant",
        "pip install '.[no-such-extra]'",
        "pip install ./no/such/folder",
        "pip install 'ttr-core[openspiel]' (from the index)",
    ],
)
def test_an_index_install_of_ttr_core_is_caught(line: str) -> None:
    assert install_problems(line), line


@pytest.mark.parametrize(
    "line",
    [
        "pip install '.[openspiel]'    # at the root of a clone of ttr-core",
        "`pip install -e '.[docs]' && mkdocs serve`",
        'python -m pip install -e ".[dev]" ./docs/examples/ttr-example-variant',
        "pip install . ./docs/examples/ttr-example-variant",
        "pip install 'ttr-core[openspiel] @ file:///work/ttr-core'",
        "pip install nox && nox",
        "pip install tqdm, or the 'sim' extra",
        "pip install '.[dask]' in a clone of ttr-core",
        "pip install 'ttr-core[dask]' once it is on the package index",
    ],
)
def test_a_line_that_works_from_a_clone_passes(line: str) -> None:
    assert not install_problems(line), install_problems(line)
