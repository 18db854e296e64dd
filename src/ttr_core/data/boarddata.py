"""A board described for clients: what an app needs to draw and explain a map.

:func:`board_data` gives plain JSON-compatible data (``to_json(board)`` writes
the same as text)::

    {"format": 1, "id": "newyork", "name": "...", "fingerprint": "3f9c...",
     "aliases": [], "colors": ["blue", ...], "wild_name": "taxi",
     "card_names": ["blue", ..., "wild"], "deck": {"blue": 12, ..., "wild": 14},
     "pieces": "taxis", "aspect": 0.72,
     "locations": [{"id": 0, "name": "...", "extra": {...}, "aliases": [], "pos": [0.1, 0.2]}],
     "routes": [{"id": 0, "a": "...", "b": "...", "color": "gray", "length": 2,
                 "pair": null, "partner": null, "extra": {"toll": 0}}],
     "tickets": [{"id": 0, "a": "...", "b": "...", "points": 7, "extra": {}, "more": []}],
     "regions": {}, "variant_data": {},
     "rules": {"min_players": 2, ..., "route_points": {"1": 1, "2": 2}, ...}}

Entries carry every field of :class:`Location`, :class:`Route`, :class:`Ticket`
and :class:`MapRules` (their variant fields under ``extra``, sorted by name);
``fingerprint`` is :func:`~ttr_core.map_fingerprint`, the id a state or view
names its map by. The map file's path and provenance notes are left out. The
output is the same for the same map content, and ``json_schema(Board)``
describes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from ttr_core.data.converter import FORMAT_VERSION
from ttr_core.errors import ArgumentError
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.model.board import Board

__all__ = ["BOARD_FIELDS", "board_data"]

#: The :class:`Board` fields a client is given, in order (after ``format``).
BOARD_FIELDS = (
    "id",
    "name",
    "aliases",
    "colors",
    "wild_name",
    "pieces",
    "aspect",
    "locations",
    "routes",
    "tickets",
    "regions",
    "variant_data",
    "rules",
)


def board_data(board: Board) -> dict[str, Any]:
    """The map as JSON-compatible data for a client: id, name, fingerprint,
    card colours, card names and counts, locations with positions, routes,
    tickets and the rule numbers, each entry with its variant fields (see the
    module's documentation for the layout). Deterministic: the same map
    content gives equal data."""
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a Board, not {type(board).__name__}")
    data: dict[str, Any] = {"format": FORMAT_VERSION}
    for name in BOARD_FIELDS:
        data[name] = _plain(getattr(board, name))
        if name == "name":
            data["fingerprint"] = map_fingerprint(board)
        elif name == "wild_name":
            data["card_names"] = list(board.card_names)
            data["deck"] = dict(zip(board.card_names, board.deck, strict=True))
    return data


def _plain(value: Any) -> Any:
    """Board facts as JSON values: attrs classes as objects of their fields,
    mappings as objects with string keys, in key order, tuples as lists."""
    if attrs.has(type(value)):
        return {f.name: _plain(getattr(value, f.name)) for f in attrs.fields(type(value)) if f.init}
    if isinstance(value, Mapping):
        items = sorted(value.items(), key=lambda kv: (type(kv[0]).__name__, kv[0]))
        return {str(k): _plain(v) for k, v in items}
    if isinstance(value, (tuple, list, frozenset)):
        return [_plain(v) for v in value]
    return value
