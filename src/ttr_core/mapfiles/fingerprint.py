"""A map's content fingerprint: what saves, views and records name their map
by, so that data written on one map's content is never read on another's."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

import attrs

from ttr_core.errors import ArgumentError, what
from ttr_core.model.board import OMITTED_AT_DEFAULT, Board, at_default, derive

__all__ = ["map_fingerprint"]


def map_fingerprint(board: Board) -> str:
    """A SHA-256 fingerprint of the map's content: everything a game depends on
    (locations, routes, tickets, cards, rules and their variant fields), not
    where the file lies, its provenance notes nor where the board is drawn
    (positions and aspect: a save survives a map's drawing being corrected).
    ``ArgumentError`` if ``board`` is not a :class:`Board`."""
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {what(board)}")
    cached: str | None = board.derived.get("fingerprint")
    if cached is None:
        content = {
            "id": board.id,
            # Positions only draw the board: they are left out, so saves survive them.
            "locations": [
                {k: v for k, v in loc.items() if k != "pos"} for loc in _plain(board.locations)
            ],
            "routes": _plain(board.routes),
            "tickets": _plain(board.tickets),
            "colors": list(board.colors),
            "deck": list(board.deck),
            "rules": _plain(board.rules),
            "wild_name": board.wild_name,
        }
        text = json.dumps(content, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
        cached = derive(board, "fingerprint", hashlib.sha256(text.encode()).hexdigest)
    return cached


def _plain(value: Any) -> Any:
    """Board facts as JSON values (mapping keys as strings), for fingerprints."""
    if attrs.has(type(value)):
        return {
            f.name: _plain(getattr(value, f.name))
            for f in attrs.fields(type(value))
            # A rule added later is left out at its default: old fingerprints hold.
            if f.init and not (f.metadata.get(OMITTED_AT_DEFAULT) and at_default(value, f))
        }
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list, frozenset)):
        return [_plain(v) for v in value]
    return value
