"""Finding a map by name: the built-in maps and the installed packages' maps
by id or alias, else a map file by path (:func:`load_map`); a name that never
opens a file (:func:`installed_map`).
"""

from __future__ import annotations

import os
from pathlib import Path

from ttr_core.errors import (
    ArgumentError,
    UnknownMapError,
    path_argument,
    what,
)
from ttr_core.hooks.manager import plugins_generation
from ttr_core.mapfiles.limits import MAX_FILE_BYTES
from ttr_core.mapfiles.packages import (
    _load_package_map,
    _may_name_a_package_map,
    _package_index,
    _PackageMap,
)
from ttr_core.mapfiles.parse import _file_error, _size_error
from ttr_core.mapfiles.reading import _builtin_index, _load_file, _stat
from ttr_core.model.board import (
    Board,
)


def available_maps(*, packages: bool = False) -> tuple[str, ...]:
    """The names of the built-in maps; with ``packages=True`` also the ids of
    the maps installed packages ship (:func:`package_maps`), sorted.

    Raises :class:`ArgumentError` if ``packages`` is not a ``bool``."""
    if type(packages) is not bool:
        raise ArgumentError(f"packages must be True or False, not {what(packages)}")
    names = {path.stem for path in _builtin_index().values()}
    if packages:
        names.update(_package_index().maps)
    return tuple(sorted(names))


def builtin_map(name: str) -> Board | None:
    """The built-in map named ``name`` (file name, id or alias; any case), or
    ``None``: never a file outside the built-in maps, whatever ``name`` is."""
    path = _builtin_index().get(name.lower()) if type(name) is str else None
    if path is None:
        return None
    stat, resolved = _stat(path, resolved=True)
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def load_map(name_or_path: str | os.PathLike[str]) -> Board:
    """Load a map by name: a built-in map, or one an installed package ships
    (by id or alias, any case; see :func:`package_maps`); else a map file by path.

    The same file is loaded once and then shared (a changed file is loaded
    again). Raises :class:`UnknownMapError` for a name that is neither,
    :class:`MapError` for a file that is not a valid map (a file larger
    than the limit is refused before it is read; a broken package map, with
    what :func:`broken_maps` says of it), and :class:`ArgumentError` if
    ``name_or_path`` is neither a ``str`` nor an ``os.PathLike``.
    """
    key = path_argument("name_or_path", name_or_path, "a map name or the path of a map file")
    path, entry = _installed(key)
    if entry is not None:
        return _load_package_map(entry)
    if path is not None:
        stat, resolved = _stat(path, resolved=True)  # a built-in map's path is resolved
    else:
        try:
            found = Path(key).is_file()  # any other name is the path of a file
        except (OSError, ValueError):  # a name too long for a path, a NUL byte, ...
            found = False
        if not found:
            raise UnknownMapError(key, available_maps())
        path = Path(key)
        stat, resolved = _stat(path)
    if stat.st_size > MAX_FILE_BYTES:
        raise _size_error(path.name, stat.st_size, "map")
    # Keyed by the installed plugins too: their map fields shape the board.
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def installed_map(name: str) -> Board | None:
    """The built-in map or the installed package map named ``name`` (id or
    alias, any case), else ``None``: never a file of any other name, whatever
    ``name`` is. :class:`MapError` for a broken package map."""
    path, entry = _installed(name)
    if entry is not None:
        return _load_package_map(entry)
    if path is None:
        return None
    stat, resolved = _stat(path, resolved=True)
    return _load_file(resolved, stat.st_mtime_ns, stat.st_size, plugins_generation())


def _installed(name: str) -> tuple[Path | None, _PackageMap | None]:
    """Where the built-in map (its path) or package map (its entry) named
    ``name`` is; ``(None, None)`` for neither. :class:`MapError` for a broken
    package map."""
    path = _builtin_index().get(name.lower())
    if path is None and _may_name_a_package_map(name):
        index = _package_index()
        entry = index.names.get(name.lower())
        if entry is not None:
            return None, entry
        broken = index.broken.get(name) or index.broken.get(name.lower())
        if broken is not None:
            raise _file_error(name, f"the installed map is broken: {broken}")
    return path, None
