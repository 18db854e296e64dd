"""Player views as JSON: written as :func:`~ttr_core.player_view` gives them,
read only if some state could give them
(:func:`~ttr_core.rules.determinize.check_view`).
"""

from __future__ import annotations

import functools
from typing import Any

import attrs

from ttr_core.data.converter import (
    _CONVERTER,
    FORMAT_VERSION,
    _Bad,
    _check_format,
    _check_keys,
    _field,
    _is,
    _json_value,
    _Path,
    _plain_value,
    _read,
    _what,
)
from ttr_core.data.states import _unstructure_board
from ttr_core.errors import (
    ArgumentError,
    DataError,
    PluginError,
    TtrError,
)
from ttr_core.hooks import declared
from ttr_core.hooks.manager import installed_plugins
from ttr_core.hooks.resolve import game_rules
from ttr_core.model.board import Board, FrozenMap
from ttr_core.model.views import PlayerView

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
    from ttr_core.rules.determinize import check_view

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
            found[name] = declared.declarations(impl, impl(board, players), "type")
    return found


_CONVERTER.register_unstructure_hook_func(_is(PlayerView), _unstructure_view)
_CONVERTER.register_structure_hook_func(_is(PlayerView), _structure_view)
