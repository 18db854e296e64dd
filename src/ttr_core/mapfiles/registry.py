"""Maps that data may name: the built-in maps, the maps installed packages
ship, and those the app registered.

A state, view or record read from outside names its map by id and content
fingerprint. Such a name is looked up here and nowhere else: among the maps
the app registered in code (:func:`register_map`), the built-in maps and the
maps of installed packages (installed code, like the built-in ones: the
``ttr_core.maps`` entry points). It is never taken as the path of a file, so
untrusted data cannot make the library open a file; a map it names that is
none of these is refused with one fixed message that says nothing about the
file system.
"""

from __future__ import annotations

import threading

from ttr_core.errors import ArgumentError, MapError, UnknownMapError, show, what
from ttr_core.mapfiles.finding import available_maps, builtin_map, installed_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.mapfiles.packages import _package_board, _package_index
from ttr_core.model.board import Board

__all__ = [
    "MAX_REGISTERED",
    "find_map",
    "named_map",
    "register_map",
    "registered_maps",
    "unregister_map",
]

#: Most maps (distinct contents) an app may register at once.
MAX_REGISTERED = 256

#: The refusal of a map name from data that is neither registered nor built in.
#: Fixed: it must not depend on whether a file of that name exists.
#: Words for any reader (``ttr replay`` prints it too): no Python advice here;
#: the API docs point to register_map, the command line to --map FILE.
NOT_AVAILABLE = (
    "the map is neither a built-in map nor one the app registered "
    "nor one an installed package ships; a map name in data is never read as a file"
)

_lock = threading.Lock()
# Copy-on-write: readers take the current dict without the lock.
_registered: dict[tuple[str, str], Board] = {}


def register_map(board: Board) -> str:
    """Let data (saved states, views, records) name ``board`` by its id and
    content fingerprint, as it names a built-in map; returns the map id.

    An app registers the maps it loaded itself (``load_map(path)``, a map
    with another ticket deck ...) before it reads data written on them.
    Boards of one id with different content are told apart by their
    fingerprints; registering the same content again changes nothing.
    Raises :class:`ArgumentError` if ``board`` is not a :class:`Board` or
    :data:`MAX_REGISTERED` maps are registered already.
    """
    if not isinstance(board, Board):
        raise ArgumentError(f"register_map() takes a loaded Board, not {show(board)}")
    key = (board.id, map_fingerprint(board))
    global _registered
    with _lock:
        if key not in _registered and len(_registered) >= MAX_REGISTERED:
            raise ArgumentError(
                f"{MAX_REGISTERED} maps are registered already: unregister_map() one first"
            )
        _registered = {**_registered, key: board}
    return board.id


def unregister_map(board: Board | str) -> int:
    """Forget a registered map: a :class:`Board` (that content) or a map id
    (every content of that id). Returns how many were forgotten (``0`` if
    none was registered). Raises :class:`ArgumentError` for another type."""
    if not isinstance(board, Board | str):
        raise ArgumentError(f"unregister_map() takes a Board or a map id, not {show(board)}")
    global _registered
    with _lock:
        if isinstance(board, Board):
            gone = {(board.id, map_fingerprint(board))}
        else:
            gone = {key for key in _registered if key[0] == board}
        kept = {key: b for key, b in _registered.items() if key not in gone}
        count = len(_registered) - len(kept)
        _registered = kept
    return count


def registered_maps() -> tuple[Board, ...]:
    """The maps the app registered, in the order registered."""
    return tuple(_registered.values())


def named_map(name: str) -> Board:
    """The map a name from outside names (a client's request, a form field):
    a map the app registered (:func:`register_map`; by id, the content
    registered last), else a built-in map or one an installed package ships
    (by id or alias, any case). Never a file, whatever ``name`` is: for a
    server, where :func:`~ttr_core.load_map` would open any path it is given
    (``new_game(..., files=False)`` loads its map here).

    Raises :class:`UnknownMapError` for any other name (its message names the
    maps there are, and nothing of the file system), :class:`ArgumentError`
    if ``name`` is not a ``str``, and :class:`MapError` for a broken package map.
    """
    if type(name) is not str:
        raise ArgumentError(f"a map name is a str, not {what(name)}")
    registered = _registered  # one consistent copy
    for (found_id, _), board in reversed(registered.items()):
        if found_id == name:
            return board
    installed = installed_map(name)
    if installed is None:
        known = sorted({*available_maps(), *(key for key, _ in registered)})
        raise UnknownMapError(name, known, files=False)
    return installed


def find_map(map_id: str, fingerprint: str) -> Board | None:
    """The board data names by ``map_id``: a registered map of that id (the one
    with ``fingerprint`` if several), else the built-in map of that id, else the
    installed package map of that id (by id, never by alias), else ``None``.
    Never opens a file other than a built-in or package map's."""
    # The package maps are looked for whatever the name, so that which files a
    # lookup reads (the installed metadata, once) never depends on the data.
    _package_index()
    registered = _registered  # one consistent copy
    exact = registered.get((map_id, fingerprint))
    if exact is not None:
        return exact
    builtin = builtin_map(map_id)
    if builtin is not None and builtin.id == map_id and map_fingerprint(builtin) == fingerprint:
        return builtin
    package = None
    if builtin is None:
        try:
            package = _package_board(map_id)
        except MapError:  # a broken package map: broken_maps() and ttr --list say why
            package = None
    if package is not None and map_fingerprint(package) == fingerprint:
        return package
    for (found_id, _), board in registered.items():
        if found_id == map_id:
            return board  # the caller reports the fingerprint that differs
    return builtin or package
