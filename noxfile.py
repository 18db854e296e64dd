"""Project sessions: ``nox`` runs tests, compiled (the mypyc build's kernel
tests), typecheck, lint (ruff and the import-linter layers) and docs (the site,
built with --strict); ``nox -s differential`` the playout against the pure API on
25,000 games; ``nox -s bench`` the benchmark; ``nox -s bench_sim`` the simulation
benchmark; ``nox -s fuzz`` the map loader fuzz with 10,000 examples."""

from __future__ import annotations

import os

import nox

nox.options.sessions = ["tests", "compiled", "typecheck", "lint", "docs"]
nox.options.error_on_missing_interpreters = True

#: The worked example of a third-party variant package (docs/hooks.md).
EXAMPLE = "docs/examples/ttr-example-variant"


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite against a regular (non-editable) install of the wheel,
    with the example third-party variant package installed as a user would, on
    every core (``-n auto``)."""
    session.install(".[test]", f"./{EXAMPLE}")
    # The install compiled the native engine (hatch_build.py; CI has a C compiler).
    session.run(
        "python",
        "-c",
        "import sys, ttr_core.native as n; "
        "sys.exit(0 if n.available else 'the native engine was not built')",
    )
    # pytest exits 5 when it collected no test: nox fails on any non-zero status.
    # On every core (pytest-xdist; test ids are the same in every worker): about
    # half the time on this project's 2-core machine.
    session.run("pytest", "-n", "auto", *session.posargs)


#: The tests of the rules kernel and the playout object, run against the compiled build:
#: the differential test, every stored replay, and the rules the kernel carries out.
KERNEL_TESTS = [
    "tests/test_playout.py",
    "tests/test_replays.py",
    "tests/test_draw_cards.py",
    "tests/test_claims.py",
    "tests/test_claimable_routes.py",
    "tests/test_known_cards.py",
    "tests/test_tickets.py",
    "tests/test_end_and_scoring.py",
    "tests/test_effects.py",
    "tests/test_claim_pipeline.py",
    "tests/test_deals_and_zones.py",
    "tests/test_tolls.py",
    "tests/test_neutral.py",
    "tests/test_europe_tunnels.py",
    "tests/test_europe_stations.py",
    "tests/test_seat_and_ply.py",
    "tests/test_hostile_actions.py",
    "tests/test_observation_tracker.py",  # reads the compiled playout's working state
]


@nox.session
def compiled(session: nox.Session) -> None:
    """The optional compiled kernel: the wheel built with mypyc as a user asks for it
    (``TTR_CORE_MYPYC=1``), checked to be compiled, then the kernel's tests against
    it (the default build, without mypyc, runs every test in ``tests``)."""
    session.install("pytest>=8", "hypothesis>=6.100", "jsonschema>=4")
    session.install(".", env={"TTR_CORE_MYPYC": "1"})
    session.run(
        "python",
        "-c",
        "import sys, ttr_core.rules.kernel.work as w, ttr_core.rules.kernel.rules as r; "
        "sys.exit(0 if all(m.__file__.endswith(('.so', '.pyd')) for m in (w, r)) "
        "else 'the kernel is not compiled')",
    )
    session.run("pytest", "-p", "no:cacheprovider", *KERNEL_TESTS, *session.posargs)


@nox.session
def differential(session: nox.Session) -> None:
    """The playout object against the pure API in lock step, ten times the games
    of the default run (about 25,000): every legal list and every state compared."""
    session.install(".[test]")
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/test_playout.py",
        "-k",
        "plays_the_pure_apis_games",
        env={"TTR_DIFFERENTIAL_SCALE": "10"},
    )


@nox.session
def differential_native(session: nox.Session) -> None:
    """The compiled engine against the Python kernel in lock step, 100,000 games
    of every map (shared among its variant sets; hours of CPU: ``-- -k europe``
    picks a map): every legal list, every state and every final count compared."""
    session.install(".[test]")
    session.run(
        "python",
        "-c",
        "import sys, ttr_core.native as n; sys.exit(0 if n.available else 'no native engine')",
    )
    session.run(
        "pytest",
        "-p",
        "no:cacheprovider",
        "tests/test_native.py",
        "-k",
        "plays_the_python_kernels_games",
        *session.posargs,
        env={"TTR_NATIVE_DIFFERENTIAL_PER_MAP": "100000"},
    )


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict over the library and the built-in plugins, with the extras whose
    types the library uses (the testing kit's hypothesis, the adapters' NumPy and
    Gymnasium)."""
    session.install(".[testing,openspiel,pettingzoo,serve]", "mypy>=1.10")
    session.run("mypy", "--strict", "src", "plugins", f"{EXAMPLE}/src")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff (lint and formatting) and import-linter: the layers of the package
    (the contracts in pyproject.toml, docs/architecture.md) hold."""
    session.install("ruff>=0.5", "import-linter>=2.0", ".")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("lint-imports")


@nox.session
def docs(session: nox.Session) -> None:
    """The documentation site (MkDocs Material; API reference from the docstrings by
    mkdocstrings), built with ``mkdocs build --strict`` into site/ (git-ignored)."""
    session.install(".[docs]")
    session.run(
        "mkdocs",
        "build",
        "--strict",
        "--site-dir",
        "site",
        *session.posargs,
        env={"NO_MKDOCS_2_WARNING": "1"},  # silence MkDocs' and Material's banners
    )


@nox.session
def adapters(session: nox.Session) -> None:
    """The OpenSpiel and PettingZoo adapters with many more games per configuration
    (TTR_ADAPTER_GAMES, default 100: about 8 minutes); not part of the default run."""
    session.install(".[test]")
    games = os.environ.get("TTR_ADAPTER_GAMES", "100")
    session.run(
        "pytest",
        "-q",
        "tests/test_openspiel.py",
        "tests/test_pettingzoo.py",
        *session.posargs,
        env={"TTR_ADAPTER_GAMES": games},
    )


@nox.session
def properties(session: nox.Session) -> None:
    """Every built-in map x its variant sets x player counts with the whole number of
    games tests/test_properties.py lists, and the 2,000 neutral-player games of
    tests/test_neutral.py (TTR_PROPERTY_SHARE=1; the default run plays half); not
    part of the default run."""
    session.install(".[test]")
    session.run(
        "pytest",
        "-q",
        "tests/test_properties.py",
        "tests/test_neutral.py",
        *session.posargs,
        env={"TTR_PROPERTY_SHARE": os.environ.get("TTR_PROPERTY_SHARE", "1")},
    )


@nox.session
def bots_europe(session: nox.Session) -> None:
    """The bots on Europe, the full profile of tests/test_europe_bots.py: each heuristic
    style plays TTR_EUROPE_BOT_GAMES (default 300) heads-up games against random play,
    attempting tunnels, claiming ferries and building stations, and prints its numbers;
    not part of the default run (the suite plays 40 per style)."""
    session.install(".[test]")
    games = os.environ.get("TTR_EUROPE_BOT_GAMES", "300")
    session.run(
        "pytest",
        "-q",
        "-s",
        "tests/test_europe_bots.py",
        *session.posargs,
        env={"TTR_EUROPE_BOT_GAMES": games},
    )


@nox.session
def pictures(session: nox.Session) -> None:
    """The board pictures of docs/pictures.md: scripts/board_pictures.py plays a seeded
    game per built-in map, writes docs/pictures/<map>.svg and screenshots each in headless
    Chromium (Debian package ``chromium``; another browser: ``-- --chromium PATH``).
    Pillow reduces the PNGs to 256 colours. Not part of the default run."""
    session.install(".", "pillow")
    session.run("python", "scripts/board_pictures.py", *session.posargs)


@nox.session
def fuzz(session: nox.Session) -> None:
    """The map loader fuzz (tests/test_map_fuzz.py) with 10,000 mutated maps, as
    issue 10 asks, and 10,000 mutants each of saved states and views played on
    (tests/test_loaded_states.py, issue 24; ``-s`` prints their counts); not
    part of the default run (the suite runs a few hundred and 60).
    ``TTR_FUZZ_EXAMPLES`` in the environment sets another number."""
    session.install(".[test]")
    examples = os.environ.get("TTR_FUZZ_EXAMPLES", "10000")
    session.run(
        "pytest",
        "-q",
        "-s",
        "tests/test_map_fuzz.py",
        "tests/test_loaded_states.py",
        "--hypothesis-show-statistics",
        *session.posargs,
        env={"TTR_FUZZ_EXAMPLES": examples},
    )


@nox.session
def bench(session: nox.Session) -> None:
    """Random-playout benchmark (games/s, actions/s); not part of the default run."""
    session.install(".")
    session.run("python", "benchmarks/bench_playouts.py", *session.posargs)


@nox.session
def bench_records(session: nox.Session) -> None:
    """What keeping a record costs per move as the game grows (O(1) appends)."""
    session.install(".")
    session.run("python", "benchmarks/bench_records.py", *session.posargs)


@nox.session
def bench_sim(session: nox.Session) -> None:
    """Simulation benchmark (games/s on one core and on all cores); not in the default run."""
    session.install(".[sim]")
    session.run("python", "benchmarks/bench_simulation.py", *session.posargs)


#: The verification kit's deep profile: (map, variants, games); 11,000 games in all.
DEEP = [
    ("newyork", "attractions", 2000),
    ("newyork", "", 1000),
    ("nederland", "tolls", 2000),
    ("nederland", "", 1000),
    ("nederland", "tolls,neutral", 1000),
    ("usa", "longest_route", 2000),
    ("amsterdam", "merchandise", 2000),
]


@nox.session
def deep(session: nox.Session) -> None:
    """The verification kit's deep profile (docs/testing.md): ``ttr verify`` over every
    built-in map and variant set, 11,000 random games with every invariant checked after
    every action; not part of the default run. ``TTR_DEEP_SCALE`` multiplies the games."""
    session.install(".")
    scale = float(os.environ.get("TTR_DEEP_SCALE", "1"))
    jobs = str(os.cpu_count() or 1)
    for map_name, variants, games in DEEP:
        session.run(
            "ttr",
            "verify",
            "--map",
            map_name,
            "--variants",
            variants,
            "--games",
            str(max(1, round(games * scale))),
            "--jobs",
            jobs,
            *session.posargs,
        )
