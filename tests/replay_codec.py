"""A compact, stable text form of core actions, for the stored replays in ``tests/data``.

Each action is a short list: ``["B"]`` DrawBlind, ``["F", slot]`` DrawFaceUp,
``["C", route, colour or None, wilds]`` ClaimRoute, ``["T"]`` DrawTickets,
``["K", [ticket ids]]`` KeepTickets, ``["P"]`` Pass; the seat is always the
one to decide, so it is not stored.
"""

from __future__ import annotations

from typing import Any

import ttr_core
from ttr_core import Action


def encode(action: Action) -> list[Any]:
    if isinstance(action, ttr_core.DrawBlind):
        return ["B"]
    if isinstance(action, ttr_core.DrawFaceUp):
        return ["F", action.slot]
    if isinstance(action, ttr_core.ClaimRoute):
        return ["C", action.route, action.color, action.wilds]
    if isinstance(action, ttr_core.DrawTickets):
        return ["T"]
    if isinstance(action, ttr_core.KeepTickets):
        return ["K", sorted(action.tickets)]
    if isinstance(action, ttr_core.Pass):
        return ["P"]
    raise TypeError(f"not a core action: {action!r}")


def decode(seat: int, code: list[Any]) -> Action:
    kind, *args = code
    if kind == "B":
        return ttr_core.DrawBlind(seat)
    if kind == "F":
        return ttr_core.DrawFaceUp(seat, args[0])
    if kind == "C":
        return ttr_core.ClaimRoute(seat, args[0], args[1], args[2])
    if kind == "T":
        return ttr_core.DrawTickets(seat)
    if kind == "K":
        return ttr_core.KeepTickets(seat, args[0])
    if kind == "P":
        return ttr_core.Pass(seat)
    raise ValueError(f"unknown action code {code!r}")
