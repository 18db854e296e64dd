"""Game records: a game's configuration, seed and actions
(:class:`GameRecord`), made from a state (:func:`record_of`), replayed and
restored with every action checked.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Iterator, Mapping, Sequence
from importlib import metadata
from typing import Any

import attrs

from ttr_core._version import __version__
from ttr_core.data.actions import _structure_action_list, _unstructure_action
from ttr_core.data.converter import (
    _CONVERTER,
    FORMAT_VERSION,
    _Bad,
    _check_format,
    _check_keys,
    _field,
    _is,
    _natural,
    _natural_or_none,
    _optional,
    _read,
    _seed,
    _strict_str,
    _termination_or_none,
    _what,
)
from ttr_core.data.states import _board_for
from ttr_core.errors import (
    ArgumentError,
    DataError,
    IllegalAction,
    OptionError,
    PlayerCountError,
    TtrError,
    show,
    what,
)
from ttr_core.hooks.manager import installed_plugins
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.model.actions import (
    Action,
)
from ttr_core.model.board import Board
from ttr_core.model.state import (
    EARLY_ENDINGS,
    GameState,
    Termination,
    check_state,
)
from ttr_core.rules.consistency import MAX_ACTIONS, _check_ending
from ttr_core.rules.engine import apply
from ttr_core.rules.setup import SEED_LIMIT, new_game

__all__ = ["GameRecord", "replay"]


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
    from ttr_core.rules.ending import end_game

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


_CONVERTER.register_unstructure_hook_func(_is(GameRecord), _unstructure_record)
_CONVERTER.register_structure_hook_func(_is(GameRecord), _structure_record)
