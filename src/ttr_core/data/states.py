"""Game states as JSON: the map named by id and fingerprint, hands as counts
per card name, players, the pending decision and the variants' state as they
declare it; a state read is checked as the rules keep their own
(:mod:`ttr_core.rules.consistency`).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ttr_core.data.converter import (
    _BOARD,
    _CONVERTER,
    _READING,
    FORMAT_VERSION,
    _at,
    _Bad,
    _check_format,
    _check_keys,
    _field,
    _ints,
    _is,
    _natural,
    _natural_or_none,
    _optional,
    _Path,
    _read,
    _seed,
    _strict_int,
    _strict_str,
    _termination_or_none,
    _what,
)
from ttr_core.errors import (
    ArgumentError,
    DataError,
    TtrError,
    show,
    what,
)
from ttr_core.hooks import declared
from ttr_core.hooks.manager import installed_plugins, plugins_generation
from ttr_core.hooks.resolve import game_rules
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.mapfiles.registry import NOT_AVAILABLE, find_map
from ttr_core.model.board import Board
from ttr_core.model.state import (
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
)
from ttr_core.rules.consistency import _check_state


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
        found.update(declared.declarations(impl, impl(), "type"))
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


_NO_TICKETS: tuple[int, ...] = ()


_CONVERTER.register_unstructure_hook_func(_is(Board), _unstructure_board)
_CONVERTER.register_structure_hook_func(_is(Board), _structure_board)
_CONVERTER.register_unstructure_hook_func(_is(Hand), _unstructure_hand)
_CONVERTER.register_structure_hook_func(_is(Hand), _structure_hand)
_CONVERTER.register_unstructure_hook_func(_is(GameState), _unstructure_state)
_CONVERTER.register_structure_hook_func(_is(GameState), _structure_state)
_CONVERTER.register_unstructure_hook_func(_is(Pending), _unstructure_pending)
_CONVERTER.register_structure_hook_func(_is(Pending), _structure_pending)
