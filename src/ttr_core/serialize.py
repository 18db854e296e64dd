"""JSON for actions, states, views, score sheets and game records (with cattrs).

One converter writes and reads every type the library exchanges with the
outside world::

    text = ttr_core.to_json(state)                    # any supported value
    state = ttr_core.from_json(text, ttr_core.GameState)

Reading is for untrusted input: the text is bounded in size, JSON nesting and
numbers; every field is checked for its exact type (a seat is an ``int``,
never ``0.0``, ``True`` or ``"0"``); unknown keys and tags are refused; a
state must keep every invariant of the game (cards conserved, each route
owned once, no negative count ...). Anything wrong raises
:class:`~ttr_core.DataError` naming the path of the bad field
(``players[1].hand.red``). Nothing read from a file is ever imported, evaluated
or unpickled: actions are named by stable tags (the core's, and each
plugin's through the ``ttr_action_types`` hook), variant state by the types
plugins declare (``ttr_variant_state_types``).

A state, view or record names its map by id and a fingerprint of the map's
content (:func:`map_fingerprint`): reading it needs the same map content,
either the built-in map of that id or the ``board`` passed in (a user's own
map file). The format is documented in ``docs/saves.md``.
"""

from __future__ import annotations

import contextvars
import functools
import json
import math
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from importlib import metadata
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn

from ttr_core.engine import SEED_LIMIT, apply, new_game
from ttr_core.errors import (
    ArgumentError,
    DataError,
    IllegalAction,
    OptionError,
    PlayerCountError,
    PluginError,
    TtrError,
    show,
    what,
)
from ttr_core.hooks import calls
from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks.manager import installed_plugins, plugins_generation
from ttr_core.hooks.resolve import game_rules
from ttr_core.kernel.work import MAX_DISPLAY_RESETS, can_take_second
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.mapfiles.limits import MAX_DISPLAY
from ttr_core.mapfiles.registry import NOT_AVAILABLE, find_map
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import Board, FrozenMap
from ttr_core.model.scores import SHOWN, FinalScores, ScoreSheet
from ttr_core.model.state import (
    EARLY_ENDINGS,
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    Termination,
    cards_outside_hands,
    check_state,
    replace_state,
)
from ttr_core.model.views import PlayerView
from ttr_core.rules.views import non_seat_owners
from ttr_core.status import SeatStatus

__all__ = [
    "FORMAT_VERSION",
    "GameRecord",
    "from_data",
    "from_json",
    "replay",
    "to_data",
    "to_json",
]

#: Version of the JSON format; a file of another version is refused.
FORMAT_VERSION = 1
#: Longest text ``from_json`` reads (characters).
MAX_TEXT = 8 * 1024 * 1024
#: Most actions a game record may hold.
MAX_ACTIONS = 200_000

T = TypeVar("T")

#: Tags of the core's actions: stable names, never class paths.
CORE_ACTION_TAGS: Mapping[str, type[Action]] = {
    "draw_blind": DrawBlind,
    "draw_face_up": DrawFaceUp,
    "claim_route": ClaimRoute,
    "draw_tickets": DrawTickets,
    "keep_tickets": KeepTickets,
    "pass": Pass,
}


# ---------------------------------------------------------------------------
# The game record
# ---------------------------------------------------------------------------


@attrs.frozen
class GameRecord:
    """Everything needed to replay a game: its configuration and its actions.

    ``map`` is the map id and ``map_fingerprint`` the fingerprint of its
    content (:func:`map_fingerprint`); ``options`` the variant options given
    (``{variant: {option: value}}``); ``actions`` every action applied, the
    starting ticket choices included; ``library_version`` and
    ``plugin_versions`` (per variant, the version of the package providing
    it) say what produced it; ``format`` is :data:`FORMAT_VERSION`.
    """

    map: str
    map_fingerprint: str
    players: int
    variants: tuple[str, ...]
    options: Mapping[str, Mapping[str, Any]]
    seed: int
    actions: tuple[Action, ...]
    library_version: str
    plugin_versions: Mapping[str, str]
    format: int = FORMAT_VERSION
    #: How the game was ended early (:func:`ttr_core.end_game`) after the
    #: actions, or ``None``: a game that ended by the rules needs no entry.
    termination: Termination | None = None
    #: The seat that resigned or ran out of time, with ``termination``.
    forfeit: int | None = None


def record_of(
    state: GameState,
    actions: Sequence[Action],
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> GameRecord:
    """The record of ``state``'s game: its configuration and seed (the same in
    every state of a game), and ``actions``, every action applied since
    ``new_game`` (the starting ticket choices included).

    ``options`` are the variant options as given to ``new_game``; by default
    the game's options with every value written out. A ``state`` ended early
    (:func:`~ttr_core.end_game`) gives its ending to the record. Raises
    :class:`ArgumentError` for a ``state`` that is not a :class:`GameState`
    or ``actions`` that are not a sequence of actions (bounded by
    :data:`MAX_ACTIONS`).
    """
    check_state(state)
    if not isinstance(actions, Sequence) or isinstance(actions, str):
        raise ArgumentError(f"actions must be a sequence of actions, not {what(actions)}")
    if len(actions) > MAX_ACTIONS:
        raise ArgumentError(f"a record holds at most {MAX_ACTIONS} actions, not {len(actions)}")
    for index, action in enumerate(actions):
        if not isinstance(action, Action):
            raise ArgumentError(f"actions[{index}] is not an action: {what(action)}")
    rules = state.rules
    if options is None:
        options = {variant: dict(values) for variant, values in rules.options}
    elif not isinstance(options, Mapping) or not all(
        type(variant) is str
        and isinstance(values, Mapping)
        and all(type(name) is str for name in values)
        for variant, values in options.items()
    ):
        raise ArgumentError(
            f"options must map variant names to {{option: value}} mappings, not {what(options)}"
        )
    early = state.termination if state.termination in EARLY_ENDINGS else None
    return GameRecord(
        map=state.board.id,
        map_fingerprint=map_fingerprint(state.board),
        players=state.num_players,
        variants=rules.variants,
        options={v: dict(values) for v, values in options.items()},
        seed=state.seed,
        actions=tuple(actions),
        library_version=_library_version(),
        plugin_versions={name: _plugin_version(name) for name in rules.variants},
        termination=early,
        forfeit=state.forfeit if early is not None else None,
    )


def _library_version() -> str:
    from ttr_core import __version__

    return __version__


@functools.lru_cache(maxsize=64)
def _plugin_version(variant: str) -> str:
    """The version of the distribution that provides ``variant`` ("" if unknown,
    e.g. a plugin registered at run time)."""
    plugin = installed_plugins().get(variant)
    obj = getattr(plugin, "obj", None)
    module = getattr(obj, "__name__", None) or type(obj).__module__
    top = str(module).split(".")[0]
    for name in metadata.packages_distributions().get(top, []):
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    # An editable install lists no packages: the package's own version, if it says.
    package = sys.modules.get(top)
    version = getattr(package, "__version__", "")
    return version if isinstance(version, str) else ""


def replay(
    record: GameRecord, board: Board | str | os.PathLike[str] | None = None
) -> Iterator[GameState]:
    """Every state of a recorded game in order: the state ``new_game`` sets up,
    then the state after each action; the last is the game's final state (ended
    early if the record says so).

    ``board`` is the map to play on when the record's is neither a built-in
    map nor one the app registered (:func:`~ttr_core.register_map`): a map
    file path or a loaded :class:`Board`, given by the app; its content must
    have the record's fingerprint. The map named in the record itself is
    never read as a file.

    The record's header (format, map, variants, options, players, seed) is
    checked before this returns: :class:`DataError` names what does not
    match. The actions are applied lazily, as the states are taken: an
    action that cannot be applied raises :class:`DataError` naming its index
    and the reason code, never the hidden cards or tickets that refused it.
    :func:`ttr_core.restore` checks a whole record at once.
    """
    state = _set_up(record, board)
    return _replayed(state, record)


def _set_up(record: object, board: Board | str | os.PathLike[str] | None) -> GameState:
    """The state ``new_game`` gives for ``record``'s header (``DataError`` if none)."""
    if not isinstance(record, GameRecord):
        raise DataError("", f"expected a GameRecord, not {what(record)}")
    if record.format != FORMAT_VERSION:
        raise DataError(
            "format",
            f"the record is in format {show(record.format)}; this library reads {FORMAT_VERSION}",
        )
    if not isinstance(record.map, str) or not isinstance(record.map_fingerprint, str):
        raise DataError("map", "the map is named by an id and a fingerprint (strings)")
    if not isinstance(record.actions, tuple | list):
        raise DataError("actions", f"expected a sequence of actions, not {what(record.actions)}")
    if len(record.actions) > MAX_ACTIONS:
        raise DataError("actions", f"at most {MAX_ACTIONS} actions, not {len(record.actions)}")
    played_on = _board_for(record.map, record.map_fingerprint, board, "map_fingerprint")
    try:
        state = new_game(
            played_on,
            record.players,
            seed=record.seed,
            variants=record.variants,
            options=record.options,
        )
    except TtrError as exc:
        if isinstance(exc, OptionError):
            field = "options"
        elif isinstance(exc, PlayerCountError):
            field = "players"
        elif isinstance(exc, ArgumentError) and not (
            type(record.seed) is int and 0 <= record.seed < SEED_LIMIT
        ):
            field = "seed"
        else:
            field = "variants"
        raise DataError(field, f"the game cannot be set up: {exc}") from None
    if record.termination is not None or record.forfeit is not None:
        _check_ending(record.termination, record.forfeit, record.players)
        if record.termination not in EARLY_ENDINGS:
            raise DataError(
                "termination",
                f"a record names only an early ending, not {show(record.termination)}",
            )
    return state


def _replayed(state: GameState, record: GameRecord) -> Iterator[GameState]:
    yield state
    for index, action in enumerate(record.actions):
        state = _applied(state, action, index)
        yield state
    if record.termination is not None:
        yield _ended(state, record)


def _applied(state: GameState, action: Action, index: int) -> GameState:
    """``apply`` for a record: refusals name the index and reason only (the
    messages of ``apply`` may quote the hidden cards or tickets that refused it)."""
    try:
        return apply(state, action)
    except IllegalAction as exc:
        raise DataError(
            f"actions[{index}]",
            f"{type(action).__name__} of seat {show(getattr(action, 'player', None), 12)} "
            f"cannot be applied at ply {state.ply} ({exc.reason})",
        ) from None


def _ended(state: GameState, record: GameRecord) -> GameState:
    from ttr_core.ending import end_game

    assert record.termination is not None
    try:
        return end_game(state, record.termination, record.forfeit)
    except TtrError as exc:
        raise DataError("termination", f"the game cannot end so: {exc}") from None


def restore(record: GameRecord, board: Board | str | os.PathLike[str] | None = None) -> GameState:
    """The final state of a recorded game, every action checked now: the
    eager form of :func:`replay` (same arguments, same :class:`DataError`)."""
    state = _set_up(record, board)
    for index, action in enumerate(record.actions):
        state = _applied(state, action, index)
    return _ended(state, record) if record.termination is not None else state


def _board_for(
    map_id: str, fingerprint: str, board: Board | str | os.PathLike[str] | None, path: str
) -> Board:
    """The board a file names, checked against its fingerprint.

    Without ``board`` (the app's own map, given in code), the name in the data
    is looked up among the registered and built-in maps only: data never
    names a file to open (:mod:`ttr_core.mapfiles.registry`)."""
    if board is None:
        named = find_map(map_id, fingerprint)
        if named is None:
            raise DataError(path, NOT_AVAILABLE)
        found = named
    elif isinstance(board, Board):
        found = board
    elif isinstance(board, str | os.PathLike):
        found = load_map(board)
    else:
        raise ArgumentError(
            f"board must be a ttr_core.Board, a map file path or None, not {what(board)}"
        )
    if found.id != map_id:
        raise DataError(path, f"the file was written for map {show(map_id)}, not {show(found.id)}")
    actual = map_fingerprint(found)
    if actual != fingerprint:
        raise DataError(
            path,
            f"the map's content has changed: the file was written for fingerprint "
            f"{fingerprint[:12]}…, this {show(map_id)} map has {actual[:12]}…",
        )
    return found


# ---------------------------------------------------------------------------
# Public entry points
# ---------------------------------------------------------------------------


#: The widest indent :func:`to_json` writes.
MAX_INDENT = 16


def to_json(value: Any, *, indent: int | None = None) -> str:
    """``value`` as JSON text: an action, a :class:`GameState`, a
    :class:`PlayerView`, a :class:`ScoreSheet`, :class:`FinalScores`, a
    :class:`GameRecord`, a :class:`Board` (its :func:`~ttr_core.board_data`),
    or a list or tuple of any of these (say a tuple of score sheets). ``indent``
    is ``None`` (one line) or an int from 0 to :data:`MAX_INDENT` (``ArgumentError``
    else)."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= MAX_INDENT):
        raise ArgumentError(
            f"indent must be None or an int from 0 to {MAX_INDENT}, not {what(indent)}"
        )
    data = to_data(value)
    try:
        return json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, OverflowError, RecursionError) as exc:
        # to_data leaves JSON's values only: this is a last guard, never a bare error.
        raise DataError("", f"cannot write {type(value).__name__} as JSON: {exc}") from None


def to_data(value: Any) -> Any:
    """``value`` as JSON-compatible Python data (dicts, lists, strings, ints,
    floats, booleans and ``None``): what :func:`to_json` writes, not yet turned
    into text, so that an app can put it inside its own message. Takes the same
    values as :func:`to_json`; :func:`from_data` reads it back. :class:`DataError`
    for a value that holds what JSON cannot (``NaN``, Infinity, an int of
    thousands of digits, an object of an unknown type)."""
    try:
        return _json_only(_data_of(value))
    except RecursionError:
        raise DataError("", f"cannot write {type(value).__name__} as JSON: too deep") from None
    except DataError:
        raise
    except (TypeError, ValueError, KeyError) as exc:
        raise DataError("", f"cannot write {type(value).__name__} as JSON: {exc}") from None


def _json_only(data: Any) -> Any:
    """``data`` with the subclasses the converter may leave (a ``StrEnum``
    member) as plain ``str``, ``int`` and ``float``: exactly JSON's types."""
    kind = type(data)
    if kind is dict:
        return {k if type(k) is str else str(k): _json_only(v) for k, v in data.items()}
    if kind is list:
        return [_json_only(v) for v in data]
    if data is None or kind is str or kind is bool:
        return data
    for plain in (bool, str, int, float):
        if isinstance(data, plain):
            data = plain(data)
            break
    if type(data) is float and not math.isfinite(data):
        # Read back, it would be refused: never write it (json.dumps would raise ValueError).
        raise DataError("", f"{data} is not a number JSON allows")
    if type(data) is int and data.bit_length() > _MAX_INT_BITS:
        raise DataError("", "cannot write a number with thousands of digits")
    if type(data) in (str, int, float, bool):
        return data
    if isinstance(data, Mapping):
        return {str(k): _json_only(v) for k, v in data.items()}
    if isinstance(data, (list, tuple)):
        return [_json_only(v) for v in data]
    raise DataError("", f"cannot write {kind.__name__} as JSON")


def _data_of(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return [_at(i, functools.partial(_data_of, item)) for i, item in enumerate(value)]
    if isinstance(value, Board):
        from ttr_core.boarddata import board_data

        return board_data(value)
    return _CONVERTER.unstructure(value, _kind_of(value))


def from_json(
    text: str | bytes,
    kind: type[T] | Any,
    *,
    board: Board | str | os.PathLike[str] | None = None,
) -> T:
    """Read JSON text written by :func:`to_json` as ``kind`` (``Action`` for any
    action, ``GameState``, ``PlayerView``, ``ScoreSheet``, ``FinalScores``,
    ``GameRecord``, or a list of one of these: ``list[Action]``,
    ``list[ScoreSheet]`` ...).

    ``board`` is the map of a state or view whose map is not built in (a map
    file path or a :class:`Board`); its content must match the fingerprint in
    the text. Raises :class:`DataError` naming the bad field.
    """
    _check_kind(kind)
    return _read_data(read_json(text), kind, board)  # type: ignore[no-any-return]


def read_json(text: str | bytes) -> Any:
    """JSON text read as the library reads its own messages, for an app's own
    envelope around them (a move's ``{"ply": ..., "action": ...}``): plain
    data (dicts, lists, strings, ints, floats, booleans, ``None``) that
    :func:`from_data` may then read.

    Strict where :func:`json.loads` is lenient, and bounded: ``text`` is a
    ``str`` or UTF-8 ``bytes`` of at most :data:`MAX_TEXT` characters; an
    object naming a key twice (``{"ply": 0, "ply": 1}``), ``NaN`` and
    ``Infinity``, a number beyond a float's range (``1e999``), an int of
    thousands of digits and nesting deeper than :data:`MAX_DEPTH` are
    refused. Raises :class:`DataError` (its message a sentence, never the
    text itself at length).
    """
    if isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise DataError(
                "", f"the text is not UTF-8: {exc.reason} at byte {exc.start}"
            ) from None
    if not isinstance(text, str):
        raise DataError("", f"expected JSON text (str or bytes), not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise DataError("", f"the text is {len(text)} characters long; at most {MAX_TEXT} are read")
    data = _parse(text)
    _check_data(data)
    return data


def from_data(
    data: Any,
    kind: type[T] | Any,
    *,
    board: Board | str | os.PathLike[str] | None = None,
) -> T:
    """Read JSON-compatible data (as :func:`to_data` writes it, or as an app's
    own JSON parser returns it) as ``kind``: the same kinds and the same checks
    as :func:`from_json`, for an action or view travelling inside an app's
    own message.

    Only JSON's values are read: dicts with string keys, lists, strings, ints,
    finite floats, booleans and ``None`` (a tuple, a set, a non-string key,
    ``NaN`` or an int of thousands of digits is refused), in at most
    :data:`MAX_DEPTH` levels and about :data:`MAX_TEXT` characters' worth.
    Raises :class:`DataError` naming the bad field; ``data`` is never changed.
    """
    _check_kind(kind)
    _check_data(data)
    return _read_data(data, kind, board)  # type: ignore[no-any-return]


#: Deepest nesting of lists and objects that ``from_json`` and ``from_data``
#: read (the library's own messages nest less than ten levels).
MAX_DEPTH = 100
#: Largest integer magnitude read: as many digits as Python turns into text.
_MAX_INT_BITS = 14_000


def _check_kind(kind: Any) -> None:
    try:  # any object may be passed: its == and hash are not to be trusted
        known = kind in _READABLE or _list_item(kind) in _READABLE
    except Exception:
        known = False
    if not known:
        raise DataError(
            "",
            f"cannot read {show(kind)}: expected one of {', '.join(_READABLE_NAMES)}, "
            "or a list of one of these",
        )


def _list_item(kind: Any) -> Any:
    """``X`` for ``list[X]`` (``None`` for anything else)."""
    if get_origin(kind) is list and len(get_args(kind)) == 1:
        return get_args(kind)[0]
    return None


def _check_data(data: Any) -> None:
    """``data`` holds JSON values only, nested at most :data:`MAX_DEPTH` deep and
    about :data:`MAX_TEXT` characters in all (a shared or cyclic structure is
    counted as often as it is reached, so it is bounded too)."""
    size = 0
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(data, 0, ())]
    while stack:
        value, depth, path = stack.pop()
        size += 1
        kind = type(value)
        if kind is str:
            size += len(value)
        elif kind is int:
            if value.bit_length() > _MAX_INT_BITS:
                raise DataError(_path_text(path), "a number with thousands of digits")
        elif kind is float:
            if not math.isfinite(value):
                raise DataError(_path_text(path), f"{value} is not a number JSON allows")
        elif isinstance(value, (dict, list)):
            if depth >= MAX_DEPTH:
                raise DataError(_path_text(path), "the input is nested too deeply")
            if isinstance(value, dict):
                for key, item in value.items():
                    if type(key) is not str:
                        raise DataError(
                            _path_text(path), f"object keys are strings in JSON, not {show(key)}"
                        )
                    size += len(key)
                    stack.append((item, depth + 1, (*path, key)))
            else:
                stack.extend((item, depth + 1, (*path, i)) for i, item in enumerate(value))
        elif value is not None and kind is not bool:
            raise DataError(
                _path_text(path),
                f"expected JSON data (dict, list, str, int, float, bool or None), "
                f"not {kind.__name__}",
            )
        if size > MAX_TEXT:
            raise DataError("", f"the input is larger than {MAX_TEXT} characters of JSON")


def _path_text(path: tuple[str | int, ...]) -> str:
    text = ""
    for key in reversed(path):
        text = _join(key, text)
    return text


def _read_data(data: Any, kind: Any, board: Board | str | os.PathLike[str] | None) -> Any:
    token = _BOARD.set(board)
    try:
        item = _list_item(kind)
        if item is None or kind == list[Action]:
            return _structure(data, kind)
        reading = _READING.set(None)
        try:
            return _at_root(lambda: _structure_list_of(data, item))
        finally:
            _READING.reset(reading)
    finally:
        _BOARD.reset(token)


def _structure_list_of(value: Any, item: Any) -> list[Any]:
    """A list of ``item`` read item by item (each problem's path starts ``[i]``)."""
    if not isinstance(value, list):
        raise _Bad(f"expected a list, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} items; at most {MAX_ACTIONS} are read")
    return [_at(i, functools.partial(_CONVERTER.structure, v, item)) for i, v in enumerate(value)]


def _parse(text: str) -> Any:
    def constant(name: str) -> Any:
        raise DataError("", f"{name} is not a number JSON allows")

    def number(literal: str) -> float:
        # A literal beyond a float's range (1e999) would read as Infinity.
        value = float(literal)
        if not math.isfinite(value):
            raise DataError("", f"{show(literal, 40)} is not a number JSON allows (out of range)")
        return value

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        found = dict(items)
        if len(found) != len(items):
            seen: set[str] = set()
            repeated: set[str] = set()
            for key, _ in items:  # linear: a long object must not cost its square
                (repeated if key in seen else seen).add(key)
            twice = sorted(repeated)
            raise DataError("", f"an object names {show(twice)} more than once")
        return found

    try:
        return json.loads(
            text, parse_constant=constant, parse_float=number, object_pairs_hook=pairs
        )
    except DataError:
        raise
    except RecursionError:
        raise DataError("", "the JSON is nested too deeply") from None
    except (ValueError, MemoryError) as exc:  # JSONDecodeError, huge number literals
        raise DataError("", f"malformed JSON: {exc}") from None


def _kind_of(value: Any) -> Any:
    if isinstance(value, Action):
        return Action
    if isinstance(value, (list, tuple)) and all(isinstance(a, Action) for a in value):
        return list[Action]
    for kind in (GameState, PlayerView, ScoreSheet, FinalScores, GameRecord, SeatStatus):
        if isinstance(value, kind):
            return kind
    raise DataError("", f"cannot write {type(value).__name__} as JSON")


_READABLE: tuple[Any, ...] = (
    Action,
    GameState,
    PlayerView,
    ScoreSheet,
    FinalScores,
    GameRecord,
    SeatStatus,
    list[Action],
)
_READABLE_NAMES = (
    "Action",
    "GameState",
    "PlayerView",
    "ScoreSheet",
    "FinalScores",
    "GameRecord",
    "SeatStatus",
    "list[Action]",
)

# ---------------------------------------------------------------------------
# The converter
# ---------------------------------------------------------------------------

#: The board given to ``from_json`` (``None``: built-in maps by id).
_BOARD: contextvars.ContextVar[Board | str | os.PathLike[str] | None] = contextvars.ContextVar(
    "ttr_board", default=None
)
#: The board of the document being read, once resolved.
_READING: contextvars.ContextVar[Board | None] = contextvars.ContextVar("ttr_reading", default=None)


class _Bad(Exception):
    """A value of the wrong type or out of range (turned into a DataError with its path)."""


def _what(value: Any) -> str:
    return show(value, 40)


def _strict_int(value: Any, _: Any) -> int:
    if type(value) is not int:
        raise _Bad(f"expected a whole number, not {_what(value)}")
    return value


def _strict_str(value: Any, _: Any) -> str:
    if type(value) is not str:
        raise _Bad(f"expected a string, not {_what(value)}")
    return value


def _strict_bool(value: Any, _: Any) -> bool:
    if type(value) is not bool:
        raise _Bad(f"expected true or false, not {_what(value)}")
    return value


def _strict_float(value: Any, _: Any) -> float:
    if type(value) not in (int, float) or not math.isfinite(value):
        raise _Bad(f"expected a number, not {_what(value)}")
    return float(value)


def _json_value(value: Any, _: Any = None) -> Any:
    """A free-form value (variant view entries, options): JSON scalars, and lists
    read back as tuples and objects as read-only mappings, so that they stay hashable."""
    if type(value) is float and not math.isfinite(value):
        raise _Bad(f"{value} is not a number JSON allows")
    if value is None or type(value) in (int, str, bool, float):
        return value
    if isinstance(value, list):
        return tuple(_json_value(v) for v in value)
    if isinstance(value, dict):
        return FrozenMap({k: _json_value(v) for k, v in value.items()})
    raise _Bad(f"expected a JSON value, not {_what(value)}")


def _plain_value(value: Any) -> Any:
    """A free-form value written as JSON (tuples and frozensets as lists)."""
    if value is None or type(value) in (int, str, bool, float):
        return value
    if isinstance(value, Mapping):
        return {str(k): _plain_value(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain_value(v) for v in value]
    if isinstance(value, frozenset):
        return sorted((_plain_value(v) for v in value), key=repr)
    if attrs.has(type(value)):
        return _CONVERTER.unstructure(value)
    raise DataError("", f"cannot write {type(value).__name__} as JSON")


def _make_converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True)
    conv.register_structure_hook(int, _strict_int)
    conv.register_structure_hook(str, _strict_str)
    conv.register_structure_hook(bool, _strict_bool)
    conv.register_structure_hook(float, _strict_float)
    conv.register_structure_hook(Any, _json_value)
    conv.register_unstructure_hook(Any, _plain_value)

    def attrs_factory(cls: type) -> Callable[[Any, Any], Any]:
        inner: Callable[[Any, Any], Any] = make_dict_structure_fn(
            cls, conv, _cattrs_forbid_extra_keys=True
        )

        def structure(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(f"expected an object, not {_what(value)}")
            return inner(value, cls)

        return structure

    conv.register_structure_hook_factory(attrs.has, attrs_factory)

    def is_tuple(t: Any) -> bool:
        return get_origin(t) is tuple

    def tuple_factory(t: Any) -> Callable[[Any, Any], Any]:
        args = get_args(t)
        if len(args) == 2 and args[1] is Ellipsis:
            item = args[0]

            def structure_items(value: Any, _: Any) -> Any:
                if not isinstance(value, list):
                    raise _Bad(f"expected a list, not {_what(value)}")
                return tuple(
                    _at(i, functools.partial(conv.structure, v, item)) for i, v in enumerate(value)
                )

            return structure_items

        def structure_fixed(value: Any, _: Any) -> Any:
            if not isinstance(value, list) or len(value) != len(args):
                raise _Bad(f"expected a list of {len(args)} items, not {_what(value)}")
            return tuple(
                _at(i, functools.partial(conv.structure, v, a))
                for i, (v, a) in enumerate(zip(value, args, strict=True))
            )

        return structure_fixed

    conv.register_structure_hook_factory(is_tuple, tuple_factory)

    def is_mapping(t: Any) -> bool:
        return get_origin(t) in (Mapping, dict) or t is Mapping

    def mapping_factory(t: Any) -> Callable[[Any, Any], Any]:
        args = get_args(t) or (str, Any)
        key_type, value_type = args

        def structure_mapping(value: Any, _: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad(f"expected an object, not {_what(value)}")
            return FrozenMap(
                {
                    conv.structure(k, key_type): conv.structure(v, value_type)
                    for k, v in value.items()
                }
            )

        return structure_mapping

    conv.register_structure_hook_factory(is_mapping, mapping_factory)
    conv.register_unstructure_hook_func(
        lambda t: isinstance(t, type) and issubclass(t, Mapping) and t is not Hand,
        lambda m: {str(k): _plain_value(v) for k, v in m.items()},
    )

    def frozenset_of_ints(value: Any, _: Any) -> frozenset[int]:
        if not isinstance(value, list):
            raise _Bad(f"expected a list, not {_what(value)}")
        return frozenset(_strict_int(v, int) for v in value)

    conv.register_structure_hook_func(_is_frozenset, frozenset_of_ints)
    conv.register_unstructure_hook(frozenset, lambda s: sorted(s, key=repr))

    # Actions: a tagged union, the tag a stable name.
    conv.register_unstructure_hook_func(
        lambda t: isinstance(t, type) and issubclass(t, Action), _unstructure_action
    )
    conv.register_structure_hook(Action, _structure_action)
    conv.register_structure_hook_func(lambda t: t == list[Action], _structure_action_list)
    # The board, the hand and the enums.
    conv.register_unstructure_hook_func(_is(Board), _unstructure_board)
    conv.register_structure_hook_func(_is(Board), _structure_board)
    conv.register_unstructure_hook_func(_is(Hand), _unstructure_hand)
    conv.register_structure_hook_func(_is(Hand), _structure_hand)
    conv.register_structure_hook_func(_is(Termination), _enum(Termination))
    # cattrs reads an optional StrEnum as any string: only a member, or null.
    read_termination = _enum(Termination)
    conv.register_structure_hook_func(
        lambda t: t == (Termination | None),
        lambda v, _: None if v is None else read_termination(v, None),
    )
    conv.register_unstructure_hook_func(_is(GameState), _unstructure_state)
    conv.register_structure_hook_func(_is(GameState), _structure_state)
    conv.register_unstructure_hook_func(_is(Pending), _unstructure_pending)
    conv.register_structure_hook_func(_is(Pending), _structure_pending)
    conv.register_unstructure_hook_func(_is(PlayerView), _unstructure_view)
    conv.register_structure_hook_func(_is(PlayerView), _structure_view)
    conv.register_unstructure_hook_func(_is(GameRecord), _unstructure_record)
    conv.register_structure_hook_func(_is(GameRecord), _structure_record)
    conv.register_structure_hook_func(_is(ScoreSheet), _structure_sheet)
    conv.register_structure_hook_func(_is(FinalScores), _structure_final_scores)
    conv.register_unstructure_hook_func(_is(SeatStatus), _unstructure_status)
    conv.register_structure_hook_func(_is(SeatStatus), _structure_status)
    return conv


def _is_frozenset(kind: Any) -> bool:
    origin: Any = get_origin(kind)
    return origin is frozenset


def _read(value: Any, kind: Any) -> Any:
    """``value`` structured as ``kind`` by the converter (any type form)."""
    return _CONVERTER.structure(value, kind)


def _is(cls: type) -> Callable[[Any], bool]:
    return lambda t: t is cls


def _enum(kind: Any) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        try:
            return kind(_strict_str(value, str))
        except ValueError:
            choices = ", ".join(repr(m.value) for m in kind)
            raise _Bad(f"expected one of {choices}, not {_what(value)}") from None

    return structure


# -- actions -------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _action_tags(generation: int) -> tuple[Mapping[str, type[Action]], Mapping[type, str]]:
    """Tag → class and class → tag: the core's and every installed plugin's."""
    tags: dict[str, type[Action]] = dict(CORE_ACTION_TAGS)
    for plugin in installed_plugins().values():
        impl = plugin.impls.get("ttr_action_types")
        if impl is not None:
            tags.update(hookcheck.declarations(impl, impl(), "action class"))
    return tags, {cls: tag for tag, cls in tags.items()}


def _unstructure_action(action: Action) -> dict[str, Any]:
    tags = _action_tags(plugins_generation())[1]
    tag = tags.get(type(action))
    if tag is None:
        raise DataError(
            "",
            f"{type(action).__name__} has no JSON tag: its variant must declare it with the "
            "ttr_action_types hook",
        )
    data: dict[str, Any] = {"type": tag}
    for field in attrs.fields(type(action)):
        data[field.name] = _plain_value(getattr(action, field.name))
    return data


@functools.lru_cache(maxsize=256)
def _action_structurer(cls: type[Action]) -> Callable[[Any, Any], Any]:
    return make_dict_structure_fn(cls, _CONVERTER, _cattrs_forbid_extra_keys=True)


def _structure_action(value: Any, _: Any) -> Action:
    if not isinstance(value, dict):
        raise _Bad(f"expected an action object, not {_what(value)}")
    tag = value.get("type")
    tags = _action_tags(plugins_generation())[0]
    cls = tags.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise _Bad(f"unknown action type {_what(tag)} (expected one of {', '.join(sorted(tags))})")
    fields = {k: v for k, v in value.items() if k != "type"}
    action: Action = _action_structurer(cls)(fields, cls)  # type: ignore[arg-type]
    return action


def _structure_action_list(value: Any, _: Any) -> list[Action]:
    if not isinstance(value, list):
        raise _Bad(f"expected a list of actions, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} actions; at most {MAX_ACTIONS} are read")
    return [_CONVERTER.structure(v, Action) for v in value]


# -- boards and hands ------------------------------------------------------------


def _unstructure_board(board: Board) -> dict[str, str]:
    return {"id": board.id, "fingerprint": map_fingerprint(board)}


def _structure_board(value: Any, _: Any) -> Board:
    if not isinstance(value, dict) or set(value) != {"id", "fingerprint"}:
        raise _Bad(f"expected {{'id': ..., 'fingerprint': ...}}, not {_what(value)}")
    map_id = _strict_str(value["id"], str)
    fingerprint = _strict_str(value["fingerprint"], str)
    board = _board_for(map_id, fingerprint, _BOARD.get(), "")
    _READING.set(board)
    return board


def _reading_board() -> Board:
    board = _READING.get()
    if board is None:
        raise _Bad("the map must come before this field")
    return board


def _unstructure_hand(hand: Hand) -> dict[str, int]:
    return dict(zip(hand.names, hand.counts, strict=True))


def _structure_hand(value: Any, _: Any) -> Hand:
    board = _reading_board()
    return Hand(_card_counts(value, board), board.card_names)


def _card_counts(value: Any, board: Board) -> tuple[int, ...]:
    names = board.card_names
    if not isinstance(value, dict):
        raise _Bad(f"expected an object of card counts, not {_what(value)}")
    unknown = sorted(set(value) - set(names))
    if unknown:
        raise _Bad(f"unknown cards {show(unknown, 120)} (cards: {', '.join(names)})")
    counts = []
    for name in names:
        if name not in value:
            raise _Path(name, "missing count")
        count = value[name]
        if type(count) is not int:
            raise _Path(name, f"expected a whole number, not {_what(count)}")
        if count < 0:
            raise _Path(name, f"a count cannot be negative ({count})")
        counts.append(count)
    return tuple(counts)


class _Path(Exception):
    """A problem at ``key`` below the value being read."""

    def __init__(self, key: str | int, message: str) -> None:
        super().__init__(message)
        self.key = key
        self.message = message


def _cards(value: Any, board: Board, empty: bool = False) -> tuple[Any, ...]:
    """A list of card names as card indices (``None`` allowed when ``empty``)."""
    if not isinstance(value, list):
        raise _Bad(f"expected a list of card names, not {_what(value)}")
    names = board.card_names
    found: list[int | None] = []
    for i, name in enumerate(value):
        if name is None and empty:
            found.append(None)
        elif type(name) is str and name in names:
            found.append(names.index(name))
        else:
            raise _Path(i, f"expected a card name ({', '.join(names)}), not {_what(name)}")
    return tuple(found)


# -- states ------------------------------------------------------------------------

_STATE_FIELDS = tuple(f.name for f in attrs.fields(GameState) if f.init)


def _unstructure_state(state: GameState) -> dict[str, Any]:
    names = state.board.card_names
    declared = _state_types(state.rules.variants)
    variant_state = {}
    for key, value in state.variant_state:
        if key not in declared:
            raise DataError(
                f"variant_state.{key}",
                "no variant of the game declares this key's type (hook ttr_variant_state_types)",
            )
        variant_state[key] = _CONVERTER.unstructure(value, declared[key])
    return {
        "format": FORMAT_VERSION,
        "board": _unstructure_board(state.board),
        "players": [_unstructure_player(p, names) for p in state.players],
        "variants": list(state.rules.variants),
        "options": {v: dict(values) for v, values in state.rules.options},
        "seed": state.seed,
        "deck": [names[c] for c in state.deck],
        "display": [None if c is None else names[c] for c in state.display],
        "discard": dict(zip(names, state.discard, strict=True)),
        "ticket_deck": list(state.ticket_deck),
        "ticket_discard": list(state.ticket_discard),
        "owners": list(state.owners),
        "pending": None if state.pending is None else _unstructure_pending(state.pending),
        "start_offers": [list(o) for o in state.start_offers],
        "final_turns": state.final_turns,
        "passes": state.passes,
        "turn": state.turn,
        "shuffles": state.shuffles,
        "termination": None if state.termination is None else str(state.termination),
        "variant_state": variant_state,
        "ply": state.ply,
        "forfeit": state.forfeit,
        "boxed_tickets": list(state.boxed_tickets),
    }


def _unstructure_player(player: PlayerState, names: tuple[str, ...]) -> dict[str, Any]:
    data = {
        f.name: _CONVERTER.unstructure(getattr(player, f.name))
        for f in attrs.fields(PlayerState)
        if f.init
    }
    data["hand"] = _unstructure_hand(player.hand)
    if "known" in data:
        data["known"] = {n: c for n, c in zip(names, player.known, strict=False) if c}
    return data


_STATE_KEYS = frozenset(
    {
        "format",
        "board",
        "players",
        "variants",
        "options",
        "seed",
        "deck",
        "display",
        "discard",
        "ticket_deck",
        "ticket_discard",
        "owners",
        "pending",
        "start_offers",
        "final_turns",
        "passes",
        "turn",
        "shuffles",
        "termination",
        "variant_state",
        "ply",
        "forfeit",
        "boxed_tickets",
    }
)
#: Keys a state written before they existed may lack (read as 0, None and empty).
_STATE_KEYS_ADDED = frozenset({"ply", "forfeit", "boxed_tickets"})


def _structure_state(value: Any, _: Any) -> GameState:
    if not isinstance(value, dict):
        raise _Bad(f"expected a game state object, not {_what(value)}")
    _check_keys(value, _STATE_KEYS, _STATE_KEYS - _STATE_KEYS_ADDED)
    _check_format(value)
    board = _field(value, "board", lambda v: _CONVERTER.structure(v, Board))
    variants = _field(value, "variants", lambda v: _CONVERTER.structure(v, tuple[str, ...]))
    options = _field(value, "options", lambda v: _read(v, Mapping[str, Mapping[str, Any]]))
    players = _field(value, "players", lambda v: _structure_players(v, board))
    try:
        rules = game_rules(board, len(players), variants, options)
    except TtrError as exc:
        raise _Path("variants", f"the game cannot be configured: {exc}") from None
    declared = _state_types(variants)
    structured: dict[str, Any] = {
        "board": board,
        "rules": rules,
        "players": players,
        "seed": _field(value, "seed", _seed),
        "deck": _field(value, "deck", lambda v: _cards(v, board)),
        "display": _field(value, "display", lambda v: _cards(v, board, empty=True)),
        "discard": _field(value, "discard", lambda v: _card_counts(v, board)),
        "ticket_deck": _field(value, "ticket_deck", lambda v: _ints(v)),
        "ticket_discard": _field(value, "ticket_discard", lambda v: _ints(v)),
        "owners": _field(value, "owners", lambda v: _ints(v)),
        "pending": _field(
            value, "pending", lambda v: None if v is None else _structure_pending(v, Pending)
        ),
        "start_offers": _field(
            value, "start_offers", lambda v: _CONVERTER.structure(v, tuple[tuple[int, ...], ...])
        ),
        "final_turns": _field(value, "final_turns", lambda v: _strict_int(v, int)),
        "passes": _field(value, "passes", lambda v: _natural(v)),
        "turn": _field(value, "turn", lambda v: _natural(v)),
        "shuffles": _field(value, "shuffles", lambda v: _natural(v)),
        "termination": _field(value, "termination", _termination_or_none),
        "variant_state": _field(value, "variant_state", lambda v: _structure_slots(v, declared)),
        "ply": _optional(value, "ply", _natural, 0),
        "forfeit": _optional(value, "forfeit", _natural_or_none, None),
        "boxed_tickets": _optional(value, "boxed_tickets", _ints, _NO_TICKETS),
    }
    state = GameState(**{name: structured[name] for name in _STATE_FIELDS})
    _check_state(state)
    return state


def _natural(value: Any) -> int:
    number = _strict_int(value, int)
    if number < 0:
        raise _Bad(f"expected a whole number ≥ 0, not {number}")
    return number


def _seed(value: Any) -> int:
    seed = _natural(value)
    if seed >= SEED_LIMIT:
        raise _Bad(f"a seed is below 2**256, not {_what(seed)}")
    return seed


def _ints(value: Any) -> tuple[int, ...]:
    if not isinstance(value, list):
        raise _Bad(f"expected a list of whole numbers, not {_what(value)}")
    for i, item in enumerate(value):
        if type(item) is not int:
            raise _Path(i, f"expected a whole number, not {_what(item)}")
    return tuple(value)


def _structure_players(value: Any, board: Board) -> tuple[PlayerState, ...]:
    if not isinstance(value, list):
        raise _Bad(f"expected a list of players, not {_what(value)}")
    low, high = board.rules.min_players, board.rules.max_players
    if not low <= len(value) <= high:
        raise _Bad(f"{board.id} is played by {low} to {high} players, not {len(value)}")
    players = []
    for i, item in enumerate(value):
        players.append(_at(i, functools.partial(_structure_player, item, board)))
    return tuple(players)


_PLAYER_FIELDS = tuple(f for f in attrs.fields(PlayerState) if f.init)


def _structure_player(value: Any, board: Board) -> PlayerState:
    if not isinstance(value, dict):
        raise _Bad(f"expected a player object, not {_what(value)}")
    names = {f.name for f in _PLAYER_FIELDS}
    required = {f.name for f in _PLAYER_FIELDS if f.default is attrs.NOTHING}
    _check_keys(value, names, required)
    found: dict[str, Any] = {}
    for field in _PLAYER_FIELDS:
        if field.name not in value:
            continue
        raw = value[field.name]
        if field.name == "hand":
            found["hand"] = _field(
                value, "hand", lambda v: Hand(_card_counts(v, board), board.card_names)
            )
        elif field.name == "known":
            found["known"] = _field(value, "known", lambda v: _known(v, board))
        elif field.name in ("tickets", "routes"):
            found[field.name] = _field(value, field.name, lambda v: _ints(v))
        elif field.name == "cars":
            found["cars"] = _field(value, "cars", lambda v: _natural(v))
        else:
            found[field.name] = _field(value, field.name, lambda v: _strict_int(v, int))
        del raw
    return PlayerState(**found)


def _known(value: Any, board: Board) -> tuple[int, ...]:
    if not isinstance(value, dict):
        raise _Bad(f"expected an object of card counts, not {_what(value)}")
    if not value:
        return ()
    full = {name: value.get(name, 0) for name in board.card_names}
    unknown = sorted(set(value) - set(board.card_names))
    if unknown:
        raise _Bad(f"unknown cards {show(unknown, 120)}")
    return _card_counts(full, board)


def _unstructure_pending(pending: Pending) -> dict[str, Any]:
    data: Any = None
    if pending.data is not None:
        kinds = _state_types(None)
        kind_type = kinds.get(pending.kind)
        if kind_type is None:
            raise DataError(
                "pending.data",
                f"decision kind {pending.kind!r} declares no data type "
                "(hook ttr_variant_state_types)",
            )
        data = _CONVERTER.unstructure(pending.data, kind_type)
    return {
        "kind": str(pending.kind),
        "player": pending.player,
        "offered": list(pending.offered),
        "min_keep": pending.min_keep,
        "data": data,
    }


def _structure_pending(value: Any, _: Any) -> Pending:
    if not isinstance(value, dict):
        raise _Bad(f"expected a decision object, not {_what(value)}")
    _check_keys(value, {"kind", "player", "offered", "min_keep", "data"})
    kind = _field(value, "kind", lambda v: _strict_str(v, str))
    if kind in {k.value for k in PendingKind}:
        kind = PendingKind(kind)
    data_type = _state_types(None).get(kind)
    raw = value["data"]
    if raw is not None and data_type is None:
        raise _Path("data", f"decision kind {kind!r} carries no data")
    return Pending(
        kind,
        _field(value, "player", lambda v: _natural(v)),
        _field(value, "offered", lambda v: _ints(v)),
        _field(value, "min_keep", lambda v: _natural(v)),
        None if raw is None else _field(value, "data", lambda v: _read(v, data_type)),
    )


def _state_types(variants: Sequence[str] | None) -> dict[str, Any]:
    """Variant state keys and decision kinds → types, from the plugins of
    ``variants`` (every installed plugin for ``None``)."""
    plugins = installed_plugins()
    names = list(plugins) if variants is None else list(variants)
    return dict(_declared_types(plugins_generation(), tuple(names)))


@functools.lru_cache(maxsize=64)
def _declared_types(generation: int, names: tuple[str, ...]) -> tuple[tuple[str, Any], ...]:
    plugins = installed_plugins()
    found: dict[str, Any] = {}
    for name in names:
        plugin = plugins.get(name)
        impl = None if plugin is None else plugin.impls.get("ttr_variant_state_types")
        if impl is None:
            continue
        found.update(hookcheck.declarations(impl, impl(), "type"))
    return tuple(found.items())


def _structure_slots(value: Any, declared: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    if not isinstance(value, dict):
        raise _Bad(f"expected an object of variant state, not {_what(value)}")
    slots = []
    for key in sorted(value):
        if key not in declared:
            raise _Path(key, "no variant of the game declares this key")
        read = functools.partial(_read, kind=declared[key])
        slots.append((key, _field(value, key, read)))
    return tuple(slots)


# -- views and records -------------------------------------------------------------

_VIEW_FIELDS = tuple(f for f in attrs.fields(PlayerView) if f.init)


def _unstructure_view(view: PlayerView) -> dict[str, Any]:
    data: dict[str, Any] = {"format": FORMAT_VERSION}
    for field in _VIEW_FIELDS:
        value = getattr(view, field.name)
        if field.name == "board":
            data["board"] = _unstructure_board(value)
        elif field.name == "variants":
            data["variants"] = _plain_value(value)
        else:
            data[field.name] = _CONVERTER.unstructure(value)
    return data


def _structure_view(value: Any, _: Any) -> PlayerView:
    if not isinstance(value, dict):
        raise _Bad(f"expected a player view object, not {_what(value)}")
    names = {f.name for f in _VIEW_FIELDS} | {"format"}
    required = {f.name for f in _VIEW_FIELDS if f.default is attrs.NOTHING} | {"format"}
    _check_keys(value, names, required)
    _check_format(value)
    board = _field(value, "board", lambda v: _CONVERTER.structure(v, Board))
    types = attrs.resolve_types(PlayerView)
    found: dict[str, Any] = {"board": board}
    for field in attrs.fields(types):
        if not field.init or field.name in ("board", "variants") or field.name not in value:
            continue
        read = functools.partial(_read, kind=field.type)
        found[field.name] = _field(value, field.name, read)
    # What the variants show is read as they declare it, for this game's seats.
    players = len(found.get("seats", ()))
    variants = found.get("variant_names", ())
    try:
        options = {variant: dict(values) for variant, values in found.get("options", ())}
        game_rules(board, players, variants, options)
    except TtrError as exc:
        raise DataError("variant_names", f"the game cannot be configured: {exc}") from None
    if "variants" in value:
        found["variants"] = _field(
            value, "variants", lambda v: _structure_shown(v, board, players, variants)
        )
    view = PlayerView(**found)
    _check_view(view)
    return view


def _check_view(view: PlayerView) -> None:
    """A view is read only if some state could give it: a state rebuilt from it
    (``determinize``, seed 0) must keep every rule a loaded state keeps and show
    the seat this very view (``determinize.check_view``)."""
    from ttr_core.determinize import check_view

    try:
        check_view(view)
    except ArgumentError as exc:
        raise DataError(getattr(exc, "field", ""), str(exc)) from None
    except PluginError as exc:
        raise DataError("variants", f"no game state gives this view: {exc}") from None
    except TtrError as exc:
        raise DataError("", f"no game state gives this view: {exc}") from None


def _structure_shown(
    value: Any, board: Board, players: int, variants: tuple[str, ...]
) -> FrozenMap[str, Any]:
    """``PlayerView.variants``: each key shown by a variant of the game, of the type the
    variant declares for this board and player count (hook ``ttr_view_types``)."""
    if not isinstance(value, dict):
        raise _Bad(f"expected an object of variant view entries, not {_what(value)}")
    declared = _view_types(board, players, variants)
    shown: dict[str, Any] = {}
    for key in value:
        owners = [v for v in variants if key == v or key.startswith(v + ".")]
        if not owners:
            raise _Path(key, f"no variant of the game ({', '.join(variants) or 'none'}) shows it")
        kind = next((types[key] for v in owners if key in (types := declared[v] or {})), None)
        if kind is not None:
            shown[key] = _field(value, key, functools.partial(_read, kind=kind))
        elif all(declared[v] is None for v in owners):
            shown[key] = _field(value, key, _json_value)
        else:
            raise _Path(key, f"variant {owners[-1]!r} shows no such entry")
    for variant in variants:
        missing = sorted(set(declared[variant] or ()) - set(value))
        if missing:
            raise _Bad(f"missing entries {missing}, which variant {variant!r} shows")
    return FrozenMap(shown)


def _view_types(
    board: Board, players: int, variants: tuple[str, ...]
) -> dict[str, dict[str, Any] | None]:
    """Per variant of the game, its view entries' types (``None``: it declares none)."""
    plugins = installed_plugins()
    found: dict[str, dict[str, Any] | None] = {}
    for name in variants:
        plugin = plugins.get(name)
        impl = None if plugin is None else plugin.impls.get("ttr_view_types")
        if impl is None:
            found[name] = None
        else:
            found[name] = hookcheck.declarations(impl, impl(board, players), "type")
    return found


# -- score sheets --------------------------------------------------------------------


@functools.lru_cache(maxsize=8)
def _shape_of(cls: type) -> Callable[[Any, Any], Any]:
    """The fields of ``cls`` read by type (no check between them)."""
    return make_dict_structure_fn(cls, _CONVERTER, _cattrs_forbid_extra_keys=True)


def _structure_sheet(value: Any, _: Any) -> ScoreSheet:
    """A score sheet as the library writes it (:func:`~ttr_core.score_sheets`,
    :func:`~ttr_core.player_score_sheets`): its total is the sum of its lines
    (a sheet withholding lines totals those it shows), its ticket counts are
    those of its ticket lines (0 and 0 where they are withheld)."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a score sheet object, not {_what(value)}")
    sheet: ScoreSheet = _shape_of(ScoreSheet)(value, ScoreSheet)
    for name in ("player", "tickets_completed", "tickets_failed"):
        if getattr(sheet, name) < 0:
            raise _Path(name, f"expected a whole number ≥ 0, not {getattr(sheet, name)}")
    refs: set[int] = set()
    won = lost = even = 0
    for i, line in enumerate(sheet.lines):
        if line.shown not in SHOWN:
            raise _Path(f"lines[{i}].shown", f"expected one of {SHOWN}, not {_what(line.shown)}")
        if line.kind == "ticket" and line.ref is not None:
            if line.ref in refs:
                raise _Path(f"lines[{i}].ref", f"ticket {line.ref} is counted twice")
            refs.add(line.ref)
            won += line.points > 0
            lost += line.points < 0
            even += line.points == 0
    points = sum(line.points for line in sheet.lines)
    if sheet.total != points:
        raise _Path("total", f"{sheet.total}, but the lines add up to {points}")
    if not won <= sheet.tickets_completed <= won + even:
        raise _Path("tickets_completed", f"{sheet.tickets_completed}, but {won} ticket lines score")
    if sheet.tickets_completed + sheet.tickets_failed != won + lost + even:
        raise _Path(
            "tickets_failed",
            f"{sheet.tickets_completed} completed and {sheet.tickets_failed} failed, but the "
            f"sheet shows {won + lost + even} ticket lines",
        )
    return sheet


def _structure_final_scores(value: Any, _: Any) -> FinalScores:
    """Final scores as :func:`~ttr_core.final_scores` writes them: a sheet per seat
    in seat order, a finished game's ending, and winners among the seats (sorted,
    each once) who share the best total and then the most completed tickets (a
    variant's tie-break may have narrowed them); the seat that resigned or ran
    out of time, whose sheet may be better, is never among them; an abandoned
    game has none."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a final scores object, not {_what(value)}")
    scores: FinalScores = _shape_of(FinalScores)(value, FinalScores)
    sheets, winners, how = scores.sheets, scores.winners, scores.termination
    if not sheets:
        raise _Path("sheets", "a game has at least one seat")
    for seat, sheet in enumerate(sheets):
        if sheet.player != seat:
            raise _Path(
                f"sheets[{seat}].player", f"sheets go in seat order: {seat}, not {sheet.player}"
            )
    if how is None:
        raise _Path("termination", "final scores are those of a finished game")
    for i, seat in enumerate(winners):
        if not 0 <= seat < len(sheets):
            raise _Path(f"winners[{i}]", f"{seat} is not a seat (0 to {len(sheets) - 1})")
    if list(winners) != sorted(set(winners)):
        raise _Path("winners", f"seats are listed once each, in order, not {_what(winners)}")
    if how == Termination.ABANDONED or not winners:
        if how == Termination.ABANDONED and winners:
            raise _Path("winners", "an abandoned game has no winner")
        if how != Termination.ABANDONED:
            raise _Path("winners", f"a game ended by {how} has a winner")
        return scores
    best = {(sheets[w].total, sheets[w].tickets_completed) for w in winners}
    if len(best) > 1:
        raise _Path("winners", "winners share the same total and completed tickets")
    ahead = sum(
        1
        for sheet in sheets
        if sheet.player not in winners and (sheet.total, sheet.tickets_completed) > min(best)
    )
    # Only the seat that resigned or timed out may do better than the winners.
    if ahead > (1 if EARLY_ENDINGS.get(how) else 0):
        raise _Path("winners", f"{ahead} other seats have a better total than the winners")
    seats = len(sheets)
    owners = [other.owner for other in scores.others]
    if any(owner < seats for owner in owners) or len(set(owners)) != len(owners):
        raise _Path("others", f"owners other than the seats, each once, not {_what(owners)}")
    return scores


#: The keys of a seat status (:class:`~ttr_core.SeatStatus`) as written.
_STATUS_KEYS = frozenset(
    {"format", "seat", "ply", "view", "legal", "legal_ids", "sheets", "scores"}
)


def _unstructure_status(status: SeatStatus) -> dict[str, Any]:
    ids = status.legal_ids
    scores = status.scores
    return {
        "format": FORMAT_VERSION,
        "seat": status.seat,
        "ply": status.ply,
        "view": _unstructure_view(status.view),
        "legal": [_unstructure_action(a) for a in status.legal],
        "legal_ids": None if ids is None else list(ids),
        "sheets": [_CONVERTER.unstructure(sheet, ScoreSheet) for sheet in status.sheets],
        "scores": None if scores is None else _CONVERTER.unstructure(scores, FinalScores),
    }


def _structure_status(value: Any, _: Any) -> SeatStatus:
    """A seat's status as :func:`~ttr_core.seat_status` writes it: each part read
    with its own checks, and the parts agreeing — the view is the seat's, at the
    same ply; the actions are the seat's, listed only while it decides, each
    with an id (or none at all); a sheet per seat; final scores exactly when
    the game is over."""
    if not isinstance(value, dict):
        raise _Bad(f"expected a seat status object, not {_what(value)}")
    _check_keys(value, _STATUS_KEYS, _STATUS_KEYS)
    _check_format(value)
    view: PlayerView = _field(value, "view", lambda v: _structure_view(v, None))
    seat = _field(value, "seat", _natural)
    ply = _field(value, "ply", _natural)
    if seat != view.viewer:
        raise _Path("seat", f"{seat}, but the view is seat {view.viewer}'s")
    if ply != view.ply:
        raise _Path("ply", f"{ply}, but the view is at ply {view.ply}")
    legal = tuple(_field(value, "legal", lambda v: _structure_action_list(v, None)))
    for i, action in enumerate(legal):
        if action.player != seat:
            raise _Path(f"legal[{i}].player", f"an action of seat {seat}, not {action.player}")
    if legal and view.current_player != seat:
        raise _Path("legal", f"seat {seat} has no action while another seat decides")
    ids = _field(value, "legal_ids", _natural_ids)
    if ids is not None and len(ids) != len(legal):
        raise _Path("legal_ids", f"{len(ids)} ids for {len(legal)} actions")
    sheets = tuple(_field(value, "sheets", lambda v: _structure_list_of(v, ScoreSheet)))
    if [sheet.player for sheet in sheets] != list(range(len(view.seats))):
        raise _Path("sheets", f"a sheet per seat, in seat order (0 to {len(view.seats) - 1})")
    scores = _field(
        value, "scores", lambda v: None if v is None else _structure_final_scores(v, None)
    )
    if (scores is not None) != view.is_over:
        raise _Path("scores", "final scores are given exactly when the game is over")
    return SeatStatus(seat, ply, view, legal, ids, sheets, scores)


def _natural_ids(value: Any) -> tuple[int, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list):
        raise _Bad(f"expected a list of action ids or null, not {_what(value)}")
    if len(value) > MAX_ACTIONS:
        raise _Bad(f"{len(value)} ids; at most {MAX_ACTIONS} are read")
    return tuple(_at(i, functools.partial(_natural, v)) for i, v in enumerate(value))


def _unstructure_record(record: GameRecord) -> dict[str, Any]:
    return {
        "format": record.format,
        "map": record.map,
        "map_fingerprint": record.map_fingerprint,
        "players": record.players,
        "variants": list(record.variants),
        "options": {v: dict(o) for v, o in record.options.items()},
        "seed": record.seed,
        "actions": [_unstructure_action(a) for a in record.actions],
        "library_version": record.library_version,
        "plugin_versions": dict(record.plugin_versions),
        **(
            {}
            if record.termination is None
            else {"termination": str(record.termination), "forfeit": record.forfeit}
        ),
    }


def _structure_record(value: Any, _: Any) -> GameRecord:
    if not isinstance(value, dict):
        raise _Bad(f"expected a game record object, not {_what(value)}")
    optional = {"termination", "forfeit"}
    fields = {f.name for f in attrs.fields(GameRecord)}
    _check_keys(value, fields, fields - optional)
    _check_format(value)
    termination = _optional(value, "termination", _termination_or_none, None)
    forfeit = _optional(value, "forfeit", _natural_or_none, None)
    return GameRecord(
        map=_field(value, "map", lambda v: _strict_str(v, str)),
        map_fingerprint=_field(value, "map_fingerprint", lambda v: _strict_str(v, str)),
        players=_field(value, "players", lambda v: _natural(v)),
        variants=_field(value, "variants", lambda v: _CONVERTER.structure(v, tuple[str, ...])),
        options=_field(value, "options", lambda v: _read(v, Mapping[str, Mapping[str, Any]])),
        seed=_field(value, "seed", _seed),
        actions=tuple(_field(value, "actions", lambda v: _structure_action_list(v, None))),
        library_version=_field(value, "library_version", lambda v: _strict_str(v, str)),
        plugin_versions=_field(value, "plugin_versions", lambda v: _read(v, Mapping[str, str])),
        format=value["format"],
        termination=termination,
        forfeit=forfeit,
    )


# -- paths and checks ----------------------------------------------------------------


def _check_keys(
    value: dict[str, Any], allowed: set[str] | frozenset[str], required: Any = None
) -> None:
    extra = sorted(set(value) - set(allowed))
    if extra:
        raise _Bad(f"unknown fields {show(extra, 120)} (expected: {', '.join(sorted(allowed))})")
    missing = sorted(set(allowed if required is None else required) - set(value))
    if missing:
        raise _Bad(f"missing fields {show(missing, 200)}")


def _check_format(value: dict[str, Any]) -> None:
    found = value.get("format")
    if found != FORMAT_VERSION or type(found) is not int:
        raise _Path("format", f"format {_what(found)}: this library reads format {FORMAT_VERSION}")


def _field(value: dict[str, Any], key: str, read: Callable[[Any], T]) -> T:
    return _at(key, lambda: read(value[key]))


_NO_TICKETS: tuple[int, ...] = ()


def _optional(value: dict[str, Any], key: str, read: Callable[[Any], T], default: T) -> T:
    """:func:`_field` for a key a document written before it existed may lack."""
    return _field(value, key, read) if key in value else default


def _termination_or_none(value: Any) -> Termination | None:
    return None if value is None else _enum(Termination)(value, None)


def _natural_or_none(value: Any) -> int | None:
    return None if value is None else _natural(value)


def _at(key: str | int, read: Callable[[], T]) -> T:
    """Run ``read``, prefixing any problem's path with ``key``."""
    try:
        return read()
    except _Path as exc:
        raise DataError(_join(key, str(exc.key)), exc.message) from None
    except _Bad as exc:
        raise DataError(_join(key, ""), str(exc)) from None
    except DataError as exc:
        raise DataError(_join(key, exc.path), exc.message) from None
    except cattrs.BaseValidationError as exc:
        path, message = _cattrs_problem(exc)
        raise DataError(_join(key, path), message) from None


def _join(key: str | int, rest: str) -> str:
    # A key from the input is quoted cut short: a path stays a few words long.
    head = f"[{key}]" if isinstance(key, int) else (key if len(key) <= 40 else show(key, 40))
    if not rest:
        return head
    if rest.startswith("["):
        return head + rest
    if rest[0].isdigit():
        return f"{head}[{rest}]"
    return f"{head}.{rest}"


def _cattrs_problem(exc: cattrs.BaseValidationError) -> tuple[str, str]:
    def describe(error: BaseException, _: Any) -> str:
        # An inner path travels after a NUL, to be joined to cattrs' own below.
        if isinstance(error, DataError):
            return f"{error.message}\0{error.path}"
        if isinstance(error, _Path):
            return f"{error.message}\0{error.key}"
        if isinstance(error, _Bad):
            return str(error)
        if isinstance(error, cattrs.ForbiddenExtraKeysError):
            return f"unknown fields {show(sorted(error.extra_fields), 120)}"
        if isinstance(error, KeyError):
            return "required field missing"
        return f"{type(error).__name__}: {error}"

    messages = cattrs.transform_error(exc, format_exception=describe)
    first = messages[0] if messages else "invalid value"
    message, _, where = first.rpartition(" @ ")
    path = where.removeprefix("$").removeprefix(".")
    message, _, inner = (message or first).partition("\0")
    if inner:
        path = _join(path, inner) if path else inner
    return path, message


def _structure(data: Any, kind: Any) -> Any:
    token = _READING.set(None)
    try:
        return _at_root(lambda: _CONVERTER.structure(data, kind))
    finally:
        _READING.reset(token)


def _at_root(read: Callable[[], T]) -> T:
    try:
        return read()
    except DataError:
        raise
    except _Path as exc:
        raise DataError(str(exc.key), exc.message) from None
    except _Bad as exc:
        raise DataError("", str(exc)) from None
    except cattrs.BaseValidationError as exc:
        path, message = _cattrs_problem(exc)
        raise DataError(path, message) from None
    except RecursionError:
        raise DataError("", "the input is nested too deeply") from None
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise DataError("", f"malformed input: {type(exc).__name__}: {exc}") from None


def _check_state(state: GameState) -> None:
    """Every invariant a state read from a file must keep (``DataError`` with a path):
    what the rules keep in every state they reach, so that play goes on from it
    (``determinize`` checks the states it builds with this too)."""
    try:
        _check_core(state)
        _check_variants(state)
    except PluginError as exc:
        # A variant that cannot make sense of the state read: its state is bad.
        raise DataError("variant_state", f"the variants cannot use this state: {exc}") from None
    _check_answerable(state)


def _check_answerable(state: GameState) -> None:
    """The pending decision can be answered: ``legal_actions`` lists something
    (a variant's decision its hooks answer; a core one always can once it is
    well formed, so this lists few actions: an offer is at most the map's size)."""
    if state.pending is None:
        return
    from ttr_core.engine import legal_actions

    try:
        legal_actions(state)
    except PluginError as exc:
        # A kind no variant answers (``_known_kind`` only checks its prefix) is the usual cause.
        path = "pending" if state.pending.kind in _CORE_KINDS else "pending.kind"
        raise DataError(path, f"no action can answer this decision: {exc}") from None


def _check_core(state: GameState) -> None:
    board = state.board
    kinds = len(board.card_names)
    n = state.num_players
    if len(state.display) != board.rules.display_size:
        raise DataError(
            "display", f"expected {board.rules.display_size} slots, not {len(state.display)}"
        )
    if len(state.owners) != len(board.routes):
        raise DataError(
            "owners", f"expected one owner per route ({len(board.routes)}), not {len(state.owners)}"
        )
    declared = {o.owner for o in non_seat_owners(state)}
    for rid, owner in enumerate(state.owners):
        if owner != UNCLAIMED and not 0 <= owner < n and owner not in declared:
            raise DataError(
                f"owners[{rid}]", f"{owner} is neither a seat, a declared owner nor {UNCLAIMED}"
            )
    claimed_by: dict[int, int] = {}
    totals = cards_outside_hands(state)
    for seat, player in enumerate(state.players):
        where = f"players[{seat}]"
        for card, count in enumerate(player.hand.counts):
            totals[card] += count
        if player.known and (
            len(player.known) != kinds
            or any(k < 0 or k > c for k, c in zip(player.known, player.hand.counts, strict=True))
        ):
            raise DataError(f"{where}.known", "more known cards than the hand holds")
        if player.known and not any(player.known):
            # The engine's form when no card is known (``()``), which a save writes as {}.
            raise DataError(f"{where}.known", "a known count of 0 is left out")
        for i, rid in enumerate(player.routes):
            if not 0 <= rid < len(board.routes):
                raise DataError(f"{where}.routes[{i}]", f"there is no route {rid}")
            if rid in claimed_by:
                raise DataError(
                    f"{where}.routes[{i}]",
                    f"route {rid} is owned twice (seat {claimed_by[rid]} too)",
                )
            claimed_by[rid] = seat
            if state.owners[rid] != seat:
                raise DataError(
                    f"{where}.routes[{i}]", f"owners[{rid}] is {state.owners[rid]}, not {seat}"
                )
            partner = board.routes[rid].partner
            if partner is not None and state.owners[partner] == seat:
                raise DataError(
                    f"{where}.routes[{i}]",
                    f"seat {seat} owns both routes of a pair ({rid}, {partner})",
                )
        placed = sum(board.routes[r].length for r in player.routes)
        if player.cars != board.rules.cars_per_player - placed:
            raise DataError(
                f"{where}.cars",
                f"{player.cars} cars, but {board.rules.cars_per_player} less the {placed} placed "
                f"is {board.rules.cars_per_player - placed}",
            )
        start = board.rules.start_scores[seat] if seat < len(board.rules.start_scores) else 0
        points = start + sum(
            board.rules.route_points[board.routes[r].length] for r in player.routes
        )
        if player.score != points + player.play_points:
            raise DataError(
                f"{where}.score",
                f"{player.score}, but the start score, the routes and the play points make "
                f"{points + player.play_points}",
            )
    for rid, owner in enumerate(state.owners):
        if 0 <= owner < n and claimed_by.get(rid) != owner:
            raise DataError(f"owners[{rid}]", f"seat {owner} owns route {rid} but does not list it")
    for card, (have, want) in enumerate(zip(totals, board.deck, strict=True)):
        if have != want:
            raise DataError(
                "deck", f"{have} {board.card_names[card]} cards in the game where there are {want}"
            )
    _check_pending(state)
    from ttr_core.hooks.checks import ticket_places

    placed_tickets = ticket_places(state)
    if sorted(placed_tickets) != list(range(len(board.tickets))):
        raise DataError("ticket_deck", "tickets are not each in exactly one place")
    _check_counters(state)
    _check_ending(state.termination, state.forfeit, n)
    _check_display(state)


#: Most shuffles a state may count. A shuffle happens only while an action (or
#: the setup, which makes the first two) draws: a ticket draw shuffles once, and
#: a card draw at most once per card it turns up, which is the display reset
#: (E3) at most ``MAX_DISPLAY_RESETS + 2`` times over per action (each laying
#: at most ``MAX_DISPLAY`` cards, plus the card taken): so never more than this
#: in :data:`MAX_ACTIONS` actions. The count seeds the next shuffle, so a
#: bound keeps that work small too (a count of thousands of digits would not
#: even turn into text).
MAX_SHUFFLES = 2 + MAX_ACTIONS * (1 + (MAX_DISPLAY_RESETS + 2) * (MAX_DISPLAY + 1))


def _check_counters(state: GameState) -> None:
    """Counters within what a game can reach: the pending seat, the final round
    (-1 until triggered, then the turns left: never 0 in a game going on),
    passes in a row (fewer than the seats while going on: a full round ends
    it), turns and actions (a record holds at most :data:`MAX_ACTIONS`; a turn
    is at least one action) and shuffles (:data:`MAX_SHUFFLES`)."""
    n = state.num_players
    pending = state.pending
    over = state.termination is not None
    if (pending is None) != over:
        raise DataError("pending", "a game with no pending decision must be over, and the reverse")
    if pending is not None and not 0 <= pending.player < n:
        raise DataError("pending.player", f"{pending.player} is not a seat (0 to {n - 1})")
    if not -1 <= state.final_turns <= n or (state.final_turns == 0 and not over):
        allowed = f"-1 or 1 to {n} in a game going on" if not over else f"-1 to {n}"
        raise DataError("final_turns", f"expected {allowed}, not {show(state.final_turns)}")
    if not 0 <= state.passes <= n or (state.passes >= n and not over):
        top = n if over else n - 1
        raise DataError("passes", f"expected 0 to {top}, not {show(state.passes)}")
    # Read from a file they are whole numbers ≥ 0 already; determinize builds them.
    if not 0 <= state.ply <= MAX_ACTIONS:
        raise DataError("ply", f"expected 0 to {MAX_ACTIONS} actions, not {show(state.ply)}")
    if not 0 <= state.turn <= MAX_ACTIONS:
        raise DataError("turn", f"expected 0 to {MAX_ACTIONS} turns, not {show(state.turn)}")
    if not 2 <= state.shuffles <= MAX_SHUFFLES:
        raise DataError(
            "shuffles",
            f"expected 2 (the setup's) to {MAX_SHUFFLES}, not {show(state.shuffles)}",
        )
    trigger = state.board.rules.end_trigger_cars
    if state.final_turns == -1 and pending is not None and pending.kind == PendingKind.TURN:
        for seat, player in enumerate(state.players):
            if player.cars <= trigger:
                raise DataError(
                    "final_turns",
                    f"seat {seat} has {player.cars} cars (the end trigger is {trigger}): "
                    "the final round has begun",
                )


def _check_display(state: GameState) -> None:
    """The display as the engine lays it: an empty slot only with no card left to
    fill it (E4), too many wilds only when no reset could help (E3)."""
    from ttr_core.invariants import display_rules

    for problem in display_rules(state):
        raise DataError("display", problem)


def _check_pending(state: GameState, *, any_kind: bool = False) -> None:
    """The pending decision well formed for its kind, and the starting offers
    with it: only the ticket choices offer tickets, each offer of the map's
    size (the starting deal, or at most a draw), of distinct tickets, with the
    minimum to keep the rules ask; seats still to make their starting choice
    each hold one dealt offer; a second card is asked for only when one can
    be taken; the core's decisions carry no data. ``any_kind``: a variant's kind
    need not be named after a variant of the game (the effect helpers, called
    by a plugin, check only the rest)."""
    pending = state.pending
    rules = state.board.rules
    offers = state.start_offers
    choosing = pending is not None and pending.kind == PendingKind.START_TICKETS
    if offers and not choosing:
        raise DataError("start_offers", "seats hold starting offers only while choosing them")
    if pending is None:
        return
    kind = pending.kind
    if kind not in _CORE_KINDS:
        if not any_kind and not _known_kind(str(kind), state.rules.variants):
            # A decision nobody can answer: the core's kinds, or a variant's own, named after it.
            raise DataError(
                "pending.kind",
                f"{show(str(kind))} is neither a core decision "
                f"({', '.join(str(k) for k in PendingKind)}) nor one of a variant of the game "
                f"(starting with its name: {', '.join(state.rules.variants) or 'none'})",
            )
        if pending.offered or pending.min_keep:
            # Tickets offered in a variant's decision would be lost when it ends.
            field = "offered" if pending.offered else "min_keep"
            raise DataError(f"pending.{field}", f"a {show(str(kind))} decision offers no tickets")
        _check_resumed(state, pending.data)
        return
    if pending.data is not None:
        raise DataError("pending.data", f"a {kind} decision carries no data")
    if kind in (PendingKind.TURN, PendingKind.SECOND_CARD):
        if pending.offered:
            raise DataError("pending.offered", f"a {kind} decision offers no tickets")
        if pending.min_keep:
            raise DataError("pending.min_keep", f"a {kind} decision keeps no tickets")
        if kind == PendingKind.SECOND_CARD and not can_take_second(
            state.deck, state.discard, state.display, state.board.wild
        ):
            raise DataError("pending.kind", "a second card is asked for where none can be taken")
        return
    if kind == PendingKind.START_TICKETS:
        low = high = rules.start_tickets_dealt
        keep = rules.start_tickets_keep
        if state.turn:
            raise DataError("pending.kind", "the starting choice comes before the first turn")
        waiting = state.num_players - 1 - pending.player
        if len(offers) != waiting:
            raise DataError(
                "pending.player" if len(offers) < state.num_players else "start_offers",
                f"seat {pending.player} chooses its starting tickets, so {max(waiting, 0)} "
                f"seats after it hold an offer, not {len(offers)}",
            )
        for i, offer in enumerate(offers):
            _check_offer(state, offer, low, high, f"start_offers[{i}]")
    else:
        low, high = 1, rules.draw_tickets
        keep = rules.draw_tickets_keep
    _check_offer(state, pending.offered, low, high, "pending.offered")
    wanted = min(keep, len(pending.offered))
    # A variant may ask a seat to keep more of a drawn offer (effects.offer_tickets).
    most = len(pending.offered) if kind == PendingKind.KEEP_TICKETS else wanted
    if not wanted <= pending.min_keep <= most:
        asked = str(wanted) if most == wanted else f"{wanted} to {most}"
        raise DataError(
            "pending.min_keep",
            f"keep at least {asked} of the {len(pending.offered)} offered, "
            f"not {show(pending.min_keep)}",
        )


def _check_resumed(state: GameState, data: Any) -> None:
    """Decisions a variant's decision keeps in its data, to resume once it is made
    (``neutral.choose`` keeps the turn that waits): each a decision of a seat,
    well formed for its kind and offering no tickets (those would be in no place)."""
    items = data if isinstance(data, tuple) else (data,)
    waiting = [item for item in items if isinstance(item, Pending)]
    for resumed in waiting:
        if resumed.offered or resumed.min_keep or resumed.kind == PendingKind.START_TICKETS:
            raise DataError("pending.data", "a decision to resume offers no tickets")
        if not 0 <= resumed.player < state.num_players:
            raise DataError("pending.data", f"a decision to resume is seat {resumed.player}'s")
        try:
            _check_pending(replace_state(state, pending=resumed))
        except DataError as exc:
            raise DataError("pending.data", f"the decision to resume: {exc}") from None


def _check_offer(state: GameState, offer: tuple[int, ...], low: int, high: int, path: str) -> None:
    """``offer``: ``low`` to ``high`` distinct tickets of the map."""
    if not low <= len(offer) <= high:
        size = str(low) if low == high else f"{low} to {high}"
        raise DataError(path, f"an offer holds {size} tickets, not {len(offer)}")
    tickets = len(state.board.tickets)
    for i, ticket in enumerate(offer):
        if not 0 <= ticket < tickets:
            raise DataError(f"{path}[{i}]", f"there is no ticket {show(ticket)}")
    if len(set(offer)) != len(offer):
        raise DataError(path, "a ticket is offered twice")


_CORE_KINDS = frozenset(PendingKind)


def _check_ending(termination: Termination | None, forfeit: int | None, players: int) -> None:
    """A forfeiting seat exactly when a resignation or timeout ended the game."""
    names_seat = EARLY_ENDINGS.get(termination) if termination is not None else None
    if names_seat:
        if forfeit is None or not 0 <= forfeit < players:
            raise DataError("forfeit", f"a {termination} names a seat (0 to {players - 1})")
    elif forfeit is not None:
        raise DataError(
            "forfeit", f"only a resignation or a timeout names a seat, not {termination}"
        )


def _check_variants(state: GameState) -> None:
    for variant, problem in calls.run_check_state(state.rules, state):
        key = problem.split(":", 1)[0] if ":" in problem else variant
        raise DataError(f"variant_state.{key}", problem)


def _known_kind(kind: str, variants: Sequence[str]) -> bool:
    """Whether ``kind`` is a decision of the core or of one of ``variants``."""
    if kind in {str(k) for k in PendingKind}:
        return True
    return any(kind == v or kind.startswith(v + ".") for v in variants)


_CONVERTER = _make_converter()
