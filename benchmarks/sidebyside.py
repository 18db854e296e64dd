"""What the benchmarks share: their configurations' syntax, and for ``--against
REV`` an old revision checked out beside this one and the environment that
runs a tree's code."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

Run = TypeVar("Run")

#: The repository's root: the new version is its working tree.
ROOT = Path(__file__).resolve().parents[1]


@contextmanager
def old_tree(revision: str) -> Iterator[Path]:
    """``revision`` checked out into a temporary git worktree, removed afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(old), revision], cwd=ROOT, check=True
        )
        if (old / "plugins" / "ttr_plugins").is_dir():
            # Before the plugins' package was renamed ttr_core_plugins: the installed
            # entry points name the new package, so it is given the old one's modules.
            alias = old / "plugins-alias"
            alias.mkdir()
            (alias / "ttr_core_plugins").symlink_to(old / "plugins" / "ttr_plugins")
        try:
            yield old
        finally:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False
            )


def tree_env(tree: Path) -> dict[str, str]:
    """The environment of a process that runs ``tree``'s code (its ``src`` and
    ``plugins`` first on the path)."""
    paths = [tree / "src", tree / "plugins", tree / "plugins-alias"]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(str(p) for p in paths if p.is_dir()))


def parse_config(config: str) -> tuple[str, int, list[str] | None]:
    """``map:players[:variants]`` as (map, players, variants or None for the map's):
    variants joined by ``+``, ``none`` for none."""
    map_name, _, rest = config.partition(":")
    count, _, names = rest.partition(":")
    variants = None
    if names:
        variants = [] if names == "none" else names.split("+")
    return map_name, int(count or 2), variants


def interleaved(
    old: Path, repeat: int, run: Callable[[Path], Run | None]
) -> tuple[list[Run], list[Run]]:
    """``run`` of the old tree and of this one in turn, ``repeat`` times each (so a
    busy moment of a shared machine slows neither version alone): the old runs'
    results and the new ones', a run that returns ``None`` (the version cannot
    play it) left out."""
    olds: list[Run] = []
    news: list[Run] = []
    for _ in range(repeat):
        for tree, results in ((old, olds), (ROOT, news)):
            result = run(tree)
            if result is not None:
                results.append(result)
    return olds, news


def callgrind(arguments: list[str], env: dict[str, str]) -> tuple[int, str]:
    """The instructions ``python arguments...`` runs under valgrind's callgrind
    (noise-free, unlike wall time) and its standard output. ``PYTHONHASHSEED``
    is fixed, so that two runs hash alike, and NumPy's BLAS runs no threads of
    its own (their waiting would count: millions of instructions a run)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        done = subprocess.run(
            [*command, sys.executable, *arguments],
            check=True,
            capture_output=True,
            text=True,
            env=dict(env, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1"),
        )
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1]), done.stdout
    raise RuntimeError("callgrind wrote no count")
