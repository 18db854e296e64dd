"""Checks of the answers of ``ttr_native_rules``: each :class:`NativeRule` of a
known kind, with the fields its kind reads well formed (and no other), so
that what reaches the compiled engine is what the variant meant; a broken
answer is a :class:`~ttr_core.errors.PluginError` naming the variant."""

from __future__ import annotations

from collections.abc import Sequence

from ttr_core.hooks.checks import MAX_TICKET_POINTS, _bad, _kind
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.declarations import NATIVE_KINDS, NATIVE_VIEWS, NativeRule
from ttr_core.model.gamerules import HookImpl


def native_rules(impl: HookImpl, result: object, board: Board) -> tuple[NativeRule, ...] | None:
    """``ttr_native_rules``: ``None`` or up to 8 :class:`NativeRule` of a known
    kind, with whole points from 0 to 1,000 and places named on the board."""
    if result is None:
        return None
    if isinstance(result, str | bytes) or not isinstance(result, Sequence) or len(result) > 8:
        _bad(impl, f"must return None or up to 8 ttr_core.NativeRule, not {_kind(result)}")
    names = {location.name for location in board.locations}
    for rule in result:
        if not isinstance(rule, NativeRule):
            _bad(impl, f"returned {_kind(rule)}: a ttr_core.NativeRule")
        if rule.kind not in NATIVE_KINDS:
            _bad(impl, f"returned the kind {_kind(rule.kind)}: one of {', '.join(NATIVE_KINDS)}")
        if type(rule.points) is not int or not 0 <= rule.points <= MAX_TICKET_POINTS:
            _bad(impl, f"returned points {_kind(rule.points)}: 0 to {MAX_TICKET_POINTS}")
        if type(rule.tie_break) is not bool:
            _bad(impl, f"returned tie_break {_kind(rule.tie_break)}: a bool")
        if not isinstance(rule.places, tuple) or any(p not in names for p in rule.places):
            _bad(impl, f"returned places {_kind(rule.places)}: names of the board's locations")
        _native_play_rule(impl, rule, board)
    return tuple(result)


#: Most ranks of a ranked bonus.
MOST_RANKS = 6


def _native_play_rule(impl: HookImpl, rule: NativeRule, board: Board) -> None:
    """The fields a play rule of ``ttr_native_rules`` reads, checked for its kind."""
    kind = rule.kind
    # Counts beyond the engine's sizes are checked where the engine is set up
    # (the game then plays on the Python kernel): an option may ask for them.
    if type(rule.count) is not int or rule.count < 0:
        _bad(impl, f"returned count {_kind(rule.count)}: a whole number from 0")
    if (
        not isinstance(rule.ranks, tuple)
        or len(rule.ranks) > MOST_RANKS
        or any(type(v) is not int or not 0 <= v <= MAX_TICKET_POINTS for v in rule.ranks)
    ):
        _bad(impl, f"returned ranks {_kind(rule.ranks)}: up to {MOST_RANKS} points, 0 to 1,000")
    if rule.ranks and kind not in ("claim_tokens", "route_tolls"):
        _bad(impl, f"{kind}: no ranks")
    if not all(isinstance(v, tuple) for v in (rule.per_route, rule.tickets, rule.per_ticket)):
        _bad(impl, "returned per_route, tickets or per_ticket that are not tuples")
    if not isinstance(rule.actions, tuple) or not all(isinstance(a, Action) for a in rule.actions):
        _bad(impl, f"returned actions {_kind(rule.actions)}: ttr_core.Action objects")
    routes = board.routes
    if kind in ("claim_min_wilds", "tunnel", "claim_tokens", "route_tolls"):
        tops = {"claim_min_wilds": None, "route_tolls": -1}
        top = tops.get(kind, 1)
        if len(rule.per_route) != len(routes) or any(
            type(v) is not int
            or v < 0
            or (top is None and v > r.length)
            or (top is not None and top >= 0 and v > top)
            for v, r in zip(rule.per_route, routes, strict=False)
        ):
            shown = {None: " to the route's length", -1: ""}.get(top, f" to {top}")
            _bad(impl, f"{kind}: per_route holds an int from 0{shown} per route of the map")
    elif rule.per_route:
        _bad(impl, f"{kind}: no per_route values")
    if kind == "regular_draws":
        if any(type(t) is not int or not 0 <= t < len(board.tickets) for t in rule.tickets):
            _bad(impl, "regular_draws: tickets are ticket ids of the map")
    elif rule.tickets:
        _bad(impl, f"{kind}: no tickets")
    if kind == "neutral_owner":
        if len(rule.per_ticket) != len(board.tickets) or any(
            not isinstance(ids, tuple)
            or any(type(r) is not int or not 0 <= r < len(routes) for r in ids)
            for ids in rule.per_ticket
        ):
            _bad(impl, "neutral_owner: per_ticket holds a tuple of route ids per ticket of the map")
        if type(rule.round) is not int or rule.round < 0:
            _bad(impl, f"neutral_owner: round {_kind(rule.round)}: a whole number from 0")
        if not callable(rule.record) or not callable(rule.read):
            _bad(impl, "neutral_owner: a record and a read function")
        if not isinstance(rule.decision, str) or not rule.decision:
            _bad(impl, "neutral_owner: the decision's kind, a non-empty string")
    elif rule.per_ticket or rule.round or rule.read is not None:
        _bad(impl, f"{kind}: no per_ticket, round or read")
    printed = {r for ids in rule.per_ticket if isinstance(ids, tuple) for r in ids}
    wanted = {
        "neutral_owner": len(printed),
        "tunnel": rule.count + 2,
        "stations": len(board.locations) * (len(board.colors) + 1) * (max(rule.count, 1) + 1),
    }.get(kind, 0)
    if len(rule.actions) != wanted:
        _bad(impl, f"{kind}: {wanted} actions, not {len(rule.actions)}")
    if wanted and kind != "neutral_owner" and not callable(rule.record):
        _bad(impl, f"{kind}: a record class (or function), not {_kind(rule.record)}")
    if kind == "tunnel" and (not isinstance(rule.decision, str) or not rule.decision):
        _bad(impl, "tunnel: the decision's kind, a non-empty string")
    keyed = ("stations", "claim_tokens", "route_tolls", "neutral_owner")
    if kind in keyed and (not isinstance(rule.key, str) or not rule.key):
        _bad(impl, f"{kind}: the variant state key, a non-empty string")
    if kind in keyed[1:3] and not callable(rule.record):
        _bad(impl, f"{kind}: a record class (or function), not {_kind(rule.record)}")
    if rule.tie_break and kind not in ("longest_trail", "stations"):
        _bad(impl, f"{kind}: breaks no tie (longest_trail and stations do)")
    _native_views(impl, rule)


def _native_views(impl: HookImpl, rule: NativeRule) -> None:
    """``views``: pairs of a view key (each once) and a number of the kind."""
    numbers = NATIVE_VIEWS.get(rule.kind, {})
    views = rule.views
    if not isinstance(views, tuple) or not all(
        isinstance(pair, tuple)
        and len(pair) == 2
        and isinstance(pair[0], str)
        and pair[0]
        and isinstance(pair[1], str)
        and pair[1] in numbers
        for pair in views
    ):
        known = ", ".join(numbers) or "none"
        _bad(
            impl,
            f"{rule.kind}: views holds pairs (view key, number), the numbers of the kind: {known}",
        )
    if len({key for key, _ in views}) != len(views):
        _bad(impl, f"{rule.kind}: a view key named twice in views")
