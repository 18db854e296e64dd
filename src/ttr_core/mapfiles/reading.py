"""Reading map files safely and once: never a FIFO or a device, never more
than the size limit, each file parsed once and shared while unchanged; the
built-in maps' folder and the index of their names.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import tomllib
from importlib import resources
from pathlib import Path
from stat import S_ISBLK, S_ISCHR, S_ISDIR, S_ISFIFO, S_ISREG
from typing import Any

from ttr_core.errors import (
    MapError,
)
from ttr_core.mapfiles.limits import MAX_FILE_BYTES
from ttr_core.mapfiles.parse import _file_error, _parse_map, _plain_text, _size_error
from ttr_core.model.board import (
    Board,
)


def _builtin_dir() -> Path:
    packaged = Path(str(resources.files("ttr_core") / "maps"))
    if packaged.is_dir():
        return packaged
    # An editable install runs from the source tree, where the maps folder
    # sits at the top of the repository rather than inside the package.
    return Path(__file__).resolve().parents[3] / "maps"  # src/ttr_core/mapfiles/reading.py


#: The ``[map]`` table of a map file: from its header to the next table's.
_MAP_TABLE = re.compile(r"^\[map\][ \t]*(?:#[^\n]*)?$(.*?)(?=^\[|\Z)", re.MULTILINE | re.DOTALL)


def _map_table(text: str) -> Any:
    """The ``[map]`` table of a map file's ``text``, parsed alone when it can
    be (a built-in map's id and aliases, without parsing its hundreds of
    routes and tickets), else from the whole file."""
    found = _MAP_TABLE.search(text)
    if found is not None:
        try:
            return tomllib.loads(found.group(1))
        except ValueError:
            pass  # a table the cut does not keep whole: read the file
    return tomllib.loads(text).get("map", {})


@functools.cache
def _builtin_index() -> dict[str, Path]:
    """Built-in map files by lower-cased file name, map id and alias."""
    index: dict[str, Path] = {}
    folder = _builtin_dir()
    if folder.is_dir():
        # Resolved once here, not at every load_map (resolving a path looks at
        # each of its folders: most of a load of a map already loaded).
        for path in sorted(p.resolve() for p in folder.glob("*.toml")):
            index[path.stem.lower()] = path
            try:
                meta = _map_table(_plain_text(_read(path, path.name, "map")))
            except (MapError, ValueError, RecursionError, MemoryError):
                continue  # reported when the map itself is loaded
            aliases = meta.get("aliases", []) if isinstance(meta, dict) else []
            names = [meta.get("id"), *aliases] if isinstance(aliases, list) else []
            for alias in names:
                if isinstance(alias, str):
                    index.setdefault(alias.lower(), path)
    return index


def _stat(path: Path, resolved: bool = False) -> tuple[os.stat_result, str]:
    """The file's status and resolved path (``MapError`` if it cannot be read);
    ``resolved``: ``path`` is resolved already."""
    try:
        return path.stat(), str(path if resolved else path.resolve())
    except (OSError, ValueError, RuntimeError) as exc:
        raise _file_error(path.name, f"cannot read the file: {exc}") from None


#: How a file is opened to be read: never waiting for a writer (a FIFO), never
#: becoming the controlling terminal (a terminal device), and not inherited.
_OPEN_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)


def _not_regular(mode: int) -> str | None:
    """Why a file of ``mode`` is not read (``None`` for a regular file): a
    named pipe, a terminal or ``/dev/stdin`` can block a read forever, and a
    device such as ``/dev/zero`` never ends."""
    if S_ISREG(mode):
        return None
    if S_ISDIR(mode):
        kind = "a directory"
    elif S_ISFIFO(mode):
        kind = "a named pipe"
    elif S_ISCHR(mode) or S_ISBLK(mode):
        kind = "a device"
    else:
        kind = "a special file"
    return f"not a regular file ({kind}): only regular files are read"


def _read(path: str | Path, source: str, kind: str) -> str:
    """The text of the regular file ``path`` of at most :data:`MAX_FILE_BYTES`
    (``MapError`` otherwise), as UTF-8.

    The file is opened without waiting (a named pipe opened to read would
    wait for a writer) and checked on the opened descriptor, so a file
    replaced by a pipe or a device after an earlier check is still refused;
    its size is checked before it is read, and no more than the limit is read.
    """
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except (OSError, ValueError) as exc:
        raise _file_error(source, f"cannot read the file: {exc}") from None
    try:
        status = os.fstat(fd)
        problem = _not_regular(status.st_mode)
        if problem is not None:
            raise _file_error(source, problem)
        if status.st_size > MAX_FILE_BYTES:
            raise _size_error(source, status.st_size, kind)
        chunks: list[bytes] = []
        left = MAX_FILE_BYTES + 1  # never more, even if the file grew
        while left > 0:
            chunk = os.read(fd, left)
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        raw = b"".join(chunks)
        if len(raw) > MAX_FILE_BYTES:
            raise _size_error(source, max(len(raw), os.fstat(fd).st_size), kind)
    except OSError as exc:
        raise _file_error(source, f"cannot read the file: {exc}") from None
    finally:
        os.close(fd)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise _file_error(source, f"not UTF-8 text: {exc}") from None


#: Map files kept loaded (and ticket decks per board): the ones used last.
_FILES_KEPT = 16


#: Held while a map file is looked up or loaded (reentrant: a plugin's map
#: check may load another map).
_LOAD_LOCK = threading.RLock()


def _load_file(path: str, mtime_ns: int, size: int, plugins: int) -> Board:
    """The board of a map file in this state, loaded once (kept while the file
    is one of the last used). Under a lock, so that threads loading one file
    at once parse it once and share one board: ``lru_cache`` alone would run
    the parse in each of them."""
    with _LOAD_LOCK:
        return _cached_file(path, mtime_ns, size, plugins)


@functools.lru_cache(maxsize=_FILES_KEPT)
def _cached_file(path: str, _mtime_ns: int, _size: int, _plugins: int) -> Board:
    name = Path(path).name
    return _parse_map(_read(path, name, "map"), name, stacklevel=5)  # naming load_map's caller
