"""Maps installed packages ship (the ``ttr_core.maps`` entry-point group):
found from the packages' metadata without importing them, each checked when
used, the broken ones reported.
"""

from __future__ import annotations

import importlib.util
import re
import threading
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import attrs

from ttr_core.errors import (
    MapError,
)
from ttr_core.hooks.manager import plugins_generation
from ttr_core.mapfiles.checker import _show
from ttr_core.mapfiles.confusables import skeleton
from ttr_core.mapfiles.limits import MAP_ID, MAX_NAME_LENGTH, MAX_NAMES
from ttr_core.mapfiles.parse import _PATH_CHARACTERS, _file_error, _prepared, _toml
from ttr_core.mapfiles.reading import _builtin_index, _load_file, _read, _stat
from ttr_core.model.board import (
    Board,
)

#: The entry-point group through which an installed package ships maps: the
#: entry-point name is the map's id, the value ``package:path/in/package.toml``
#: (docs/map-format.md).
MAP_ENTRY_POINT_GROUP = "ttr_core.maps"


#: Most entry points of that group looked at; any more are reported broken.
MAX_PACKAGE_MAPS = 64


#: ``package.module:path/in/it.toml``: an importable package, then a relative file path.
_MAP_REFERENCE = re.compile(
    r"\s*(?P<package>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\s*:\s*(?P<path>[^\s:\\]+\.toml)\s*"
)


@attrs.frozen
class _PackageMap:
    """A map an installed package ships: its id, the distribution, the file."""

    id: str
    package: str
    path: Path


@attrs.frozen
class _PackageIndex:
    """The package maps by id, by every lower-cased name (id and aliases), and
    the broken entry points with what is wrong with each."""

    maps: dict[str, _PackageMap]
    names: dict[str, _PackageMap]
    broken: dict[str, str]


_PACKAGE_LOCK = threading.Lock()


# (plugins generation, index): rebuilt when the plugins change, so that
# rescan_entry_points() finds newly installed maps too. Readers take no lock.
_package_cache: tuple[int, _PackageIndex] | None = None


#: Package maps that failed to load when used (map id -> the error), per generation.
_package_failures: tuple[int, dict[str, str]] = (-1, {})


def _may_name_a_package_map(key: str) -> bool:
    """Whether ``key`` could be a package map's id or alias: a path (with a
    separator) never is, so loading a file by path reads no package metadata."""
    return len(key) <= MAX_NAME_LENGTH and _PATH_CHARACTERS.isdisjoint(key)


def _package_index() -> _PackageIndex:
    """The maps the installed packages ship (looked for once per plugins
    generation, by one thread). Nothing of a package is imported or run: its
    directory is found from its import spec and the map file's header read."""
    global _package_cache
    generation = plugins_generation()
    found = _package_cache
    if found is None or found[0] != generation:
        with _PACKAGE_LOCK:
            found = _package_cache
            if found is None or found[0] != generation:
                found = _package_cache = (generation, _scan_package_maps())
    return found[1]


def _scan_package_maps() -> _PackageIndex:
    builtin = _builtin_index()
    taken = {skeleton(name): f"the built-in map {path.stem!r}" for name, path in builtin.items()}
    maps: dict[str, _PackageMap] = {}
    names: dict[str, _PackageMap] = {}
    broken: dict[str, str] = {}
    try:
        found = sorted(entry_points(group=MAP_ENTRY_POINT_GROUP), key=_entry_order)
    except Exception as exc:  # broken metadata of some distribution must not break loading
        return _PackageIndex({}, {}, {"*": f"cannot read the installed entry points: {exc}"})
    for number, ep in enumerate(found):
        package = _distribution(ep)
        if number >= MAX_PACKAGE_MAPS:
            broken[ep.name] = (
                f"from {package}: more than {MAX_PACKAGE_MAPS} maps are installed; "
                "the others are left out"
            )
            continue
        try:
            entry, aliases = _package_map(ep, package)
        except MapError as exc:
            broken[ep.name] = f"from {package}: " + "; ".join(p.message for p in exc.problems)
            continue
        own: dict[str, str] = {}  # skeleton -> name, the id first
        for name in (entry.id, *aliases):
            own.setdefault(skeleton(name), name)
        clash = next((look for look in own if look in taken), None)
        if clash is not None:
            which = "id" if own[clash] == entry.id else "alias"
            broken[ep.name] = (
                f"from {package}: its {which} {own[clash]!r} is a name of {taken[clash]}; "
                "an installed map never replaces another"
            )
            continue
        taken.update(dict.fromkeys(own, f"map {entry.id!r} of {package}"))
        maps[entry.id] = entry
        for name in (entry.id, *aliases):
            names.setdefault(name.lower(), entry)
    return _PackageIndex(maps, names, broken)


def _entry_order(ep: EntryPoint) -> tuple[str, str]:
    """By map id, then package: of two clashing maps the second is the broken one."""
    return (ep.name, _distribution(ep))


def _distribution(ep: EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    name = getattr(dist, "name", None)
    return name if isinstance(name, str) else "an unknown package"


def _package_map(ep: EntryPoint, package: str) -> tuple[_PackageMap, tuple[str, ...]]:
    """The map an entry point names, with its aliases, read from its file's
    ``[map]`` table (``MapError`` naming what is wrong)."""
    source = f"{ep.name} = {ep.value!r}"
    if not MAP_ID.fullmatch(ep.name):
        raise _file_error(source, f"the entry-point name {_show(ep.name)} is not a map id")
    reference = _MAP_REFERENCE.fullmatch(ep.value)
    parts = reference["path"].split("/") if reference else []
    if reference is None or any(part in ("", ".", "..") for part in parts):
        raise _file_error(
            source, "the value must be 'package:path/in/the/package.toml' (a relative path)"
        )
    top, *inner = reference["package"].split(".")
    try:
        spec = importlib.util.find_spec(top)  # a top-level name: nothing is imported
    except Exception as exc:  # a finder of another package may raise anything
        raise _file_error(source, f"cannot find package {top!r}: {exc}") from None
    folders = list(spec.submodule_search_locations or []) if spec is not None else []
    if not folders:
        raise _file_error(source, f"package {top!r} is not installed (or not a package)")
    candidates = [Path(folder, *inner, *parts) for folder in folders]
    path = next((c for c in candidates if c.is_file()), candidates[0])
    meta = _toml(_prepared(_read(path, path.name, "map"), path.name, "map"), path.name).get("map")
    meta = meta if isinstance(meta, dict) else {}
    if meta.get("id") != ep.name:
        raise _file_error(
            path.name,
            f"the map's [map] id is {_show(meta.get('id'))}, not the entry-point name {ep.name!r}",
        )
    raw = meta.get("aliases", [])
    aliases = raw[:MAX_NAMES] if isinstance(raw, list) else []
    good = tuple(a for a in aliases if isinstance(a, str) and _may_name_a_package_map(a))
    return _PackageMap(ep.name, package, path), good


def _load_package_map(entry: _PackageMap) -> Board:
    """The board of a package map (``MapError`` if it is not a valid map; the
    failure is then reported by :func:`broken_maps`)."""
    global _package_failures
    try:
        stat, resolved = _stat(entry.path)
        board = _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())
        if board.id != entry.id:  # the file changed since the index was made
            message = f"the map's id is now {board.id!r}, not {entry.id!r}"
            raise _file_error(entry.path.name, message)
    except MapError as exc:
        generation = plugins_generation()
        with _PACKAGE_LOCK:
            failures = _package_failures
            known = failures[1] if failures[0] == generation else {}
            error = "; ".join(p.message for p in exc.problems[:3])
            _package_failures = (generation, {**known, entry.id: f"from {entry.package}: {error}"})
        raise
    return board


def _package_board(map_id: str) -> Board | None:
    """The package map whose id is ``map_id`` (never by alias), or ``None``."""
    entry = _package_index().maps.get(map_id) if _may_name_a_package_map(map_id) else None
    return None if entry is None else _load_package_map(entry)


def package_maps() -> dict[str, str]:
    """The maps installed packages ship that can be used: ``{map id: the
    package (distribution) that ships it}``, by id. ``load_map``, ``new_game``
    and ``ttr --map`` find each by id and by its aliases, and saved games name
    it by id like a built-in map. Packages register maps in the
    ``ttr_core.maps`` entry-point group (docs/map-format.md); a package map
    never replaces a built-in map or an earlier one (:func:`broken_maps`).
    """
    index = _package_index()
    failures = _package_failures
    failed = failures[1] if failures[0] == plugins_generation() else {}
    return {i: entry.package for i, entry in sorted(index.maps.items()) if i not in failed}


def broken_maps() -> dict[str, str]:
    """``{name: error}`` for each map an installed package ships that cannot be
    used: an entry point that names no readable map file, a file that is not
    TOML or whose ``[map] id`` is not the entry-point name, a name that is a
    name of a built-in or an earlier package map (which it never replaces),
    or a map that failed to load when used."""
    broken = dict(_package_index().broken)
    failures = _package_failures
    if failures[0] == plugins_generation():
        broken.update(failures[1])
    return dict(sorted(broken.items()))
