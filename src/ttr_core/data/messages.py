"""The library's JSON: :func:`to_json`/:func:`to_data` write an action, a
state, a view, score sheets, a record or a seat status,
:func:`from_json`/:func:`from_data` read them as untrusted input,
:func:`read_json` reads plain JSON as strictly.
"""

from __future__ import annotations

import functools
import json
import math
import os
from collections.abc import Mapping
from typing import Any, get_args, get_origin

# Each kind of message registers its hooks on the converter when imported.
from ttr_core.data import actions as _actions  # noqa: F401
from ttr_core.data import scores as _scores  # noqa: F401
from ttr_core.data import states as _states  # noqa: F401
from ttr_core.data import views as _views  # noqa: F401
from ttr_core.data.converter import (
    _BOARD,
    _CONVERTER,
    _READING,
    T,
    _at,
    _at_root,
    _join,
    _structure,
    _structure_list_of,
)
from ttr_core.data.records import GameRecord
from ttr_core.errors import (
    ArgumentError,
    DataError,
    show,
    what,
)
from ttr_core.model.actions import (
    Action,
)
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores, ScoreSheet
from ttr_core.model.state import (
    GameState,
)
from ttr_core.model.views import PlayerView
from ttr_core.rules.status import SeatStatus

__all__ = ["from_data", "from_json", "to_data", "to_json"]


#: Longest text ``from_json`` reads (characters).
MAX_TEXT = 8 * 1024 * 1024


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
        from ttr_core.data.boarddata import board_data

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
