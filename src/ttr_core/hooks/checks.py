"""Checking what plugins' hooks return.

Every hook result is checked against its spec before the engine uses it; a
bad one raises :class:`PluginError` naming the variant, the hook and what was
wrong, instead of a bare ``IndexError`` deep inside the engine. Checks on
hooks called once per game (setup, game over, scoring, views, map data,
options) always run in full. On the per-move hooks the cheap part always
runs (the result's type) and the rest — a state's consistency and card
conservation, a filter's subset — only in *strict mode*, which the test
suite and verification tools switch on with :func:`set_strict` (or the
environment variable ``TTR_STRICT=1``).

One module of about 750 lines: one check per kind of result, side by side,
so that what a hook may return reads in one place beside its spec.
"""

from __future__ import annotations

import itertools
import math
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NoReturn

import attrs

from ttr_core.errors import ArgumentError, PluginError, show
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.declarations import (
    ActionPurpose,
    BuildsToken,
    ClaimsRoute,
    ClosesRoute,
    Gains,
    MoveWords,
    NonSeatOwner,
    RouteStyle,
    TicketEnds,
    TicketGoal,
    Token,
)
from ttr_core.model.gamerules import HookImpl
from ttr_core.model.scores import ScoreLine
from ttr_core.model.state import GameState, Hand, Pending, PendingKind, PlayerState

#: Environment variable that switches strict mode on for the whole process.
STRICT_ENV = "TTR_STRICT"
#: Strict mode, as a one-element list so that hot paths read it without a call.
STRICT = [bool(os.environ.get(STRICT_ENV))]

_TABLES = ("locations", "routes", "tickets")


def set_strict(on: bool = True) -> bool:
    """Switch strict hook checks on or off for this process; returns the previous setting.

    In strict mode every state a per-move hook returns is checked in full
    (same board and seats, hashable variant state, every card accounted for)
    and a filter's result must be a subset of its candidates. Meant for test
    suites and verification runs; it costs time on every move. ``ArgumentError``
    if ``on`` is not a bool.
    """
    if type(on) is not bool:
        raise ArgumentError(f"on must be True or False, not {type(on).__name__} {show(on)}")
    previous = STRICT[0]
    STRICT[0] = on
    return previous


def is_strict() -> bool:
    """Whether strict hook checks are on."""
    return STRICT[0]


def _bad(impl: HookImpl, problem: str) -> NoReturn:
    raise PluginError(
        f"variant {impl.variant!r}: hook {impl.hook} {problem}",
        variant=impl.variant,
        hook=impl.hook,
    )


def _kind(value: object) -> str:
    text = show(value)
    return f"{type(value).__name__} {text}" if len(text) < 60 else type(value).__name__


def _sequence(impl: HookImpl, result: object, what: str) -> Sequence[Any]:
    if isinstance(result, (str, bytes)) or not isinstance(result, Sequence):
        _bad(impl, f"must return a sequence of {what}, not {_kind(result)}")
    return result


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


# ---------------------------------------------------------------------------
# Problem messages and answers
# ---------------------------------------------------------------------------


MAX_MESSAGES = 1000


def messages(impl: HookImpl, result: object) -> list[str]:
    """``ttr_validate_map``, ``ttr_check_state``, ``ttr_check_transition``: ``None``
    or any iterable of strings (a list, a set, a generator), read at once and at
    most :data:`MAX_MESSAGES` of them; each message gets the variant's name."""
    if result is None:
        return []
    if isinstance(result, (str, bytes, bytearray)) or not isinstance(result, Iterable):
        _bad(
            impl,
            f"must return an iterable of problem messages (strings) or None, not {_kind(result)}",
        )
    found = _read(impl, result, MAX_MESSAGES)
    if len(found) > MAX_MESSAGES:
        _bad(impl, f"returned more than {MAX_MESSAGES} problem messages")
    for message in found:
        if not isinstance(message, str):
            _bad(impl, f"must return problem messages as strings, not {_kind(message)}")
    return [f"{message} (variant {impl.variant!r})" for message in found]


def _read(impl: HookImpl, result: Iterable[Any], limit: int) -> list[Any]:
    """The first ``limit + 1`` items of ``result``. A generator runs the plugin's
    code only now: what it raises is named as the hook's call would be."""
    try:
        return list(itertools.islice(result, limit + 1))
    except Exception as exc:
        blamed = impl.blame(exc, reading=True)
        if blamed is exc:
            raise
        raise blamed from exc


def refusal(impl: HookImpl, result: object) -> str | None:
    """``ttr_check_game``: ``None`` or a non-empty sentence."""
    if result is not None and (not isinstance(result, str) or not result.strip()):
        _bad(impl, f"must return a reason (a non-empty string) or None, not {_kind(result)}")
    return result


def optional_bool(impl: HookImpl, result: object) -> bool | None:
    """``ttr_both_pair_routes_usable``: ``True``, ``False`` or ``None``."""
    if result is not None and not isinstance(result, bool):
        _bad(impl, f"must return True, False or None, not {_kind(result)}")
    return result


# ---------------------------------------------------------------------------
# States returned by hooks
# ---------------------------------------------------------------------------


def state_result(impl: HookImpl, before: GameState, result: object, *, full: bool) -> GameState:
    """A chained state hook's result: ``None`` keeps ``before``; else a consistent state."""
    if result is None:
        return before
    if not isinstance(result, GameState):
        _bad(impl, f"must return a GameState or None, not {_kind(result)}")
    if full:
        check_state(impl, before, result)
    else:
        pending = result.pending
        if pending is not None and not 0 <= pending.player < len(before.players):
            _bad(impl, f"returned a state waiting for seat {pending.player!r}, not a seat")
    return result


def claim_waits(impl: HookImpl, before: GameState, claim: Action, result: object) -> GameState:
    """A ``ttr_before_claim`` answer: a consistent state that waits for a decision
    of the claiming seat, of the variant's own kind, with the claim not made."""
    if not isinstance(result, GameState):
        _bad(impl, f"must return a GameState or None, not {_kind(result)}")
    check_state(impl, before, result)  # a claim that waits is rare: always checked in full
    pending = result.pending
    if pending is None or pending.player != claim.player or pending.kind in frozenset(PendingKind):
        _bad(
            impl,
            "returned a state that does not wait for a variant decision of the claiming "
            f"seat {claim.player} (waits for {pending!r})",
        )
    if result.owners != before.owners:
        _bad(impl, "claimed a route before the claim was decided (use effects.complete_claim)")
    return result


def after_claim_decision(
    impl: HookImpl, deciding: Pending | None, now: Pending | None, opened: HookImpl | None
) -> None:
    """A ``ttr_after_claim`` answer that changed the pending decision: it must open a
    decision of the variant's own kind for the seat deciding the claim
    (``deciding``), and no decision another variant opened after the same claim
    may be replaced. The turn then waits for the decision (docs/hooks.md)."""
    if opened is not None:
        _bad(
            impl,
            f"replaced the decision variant {opened.variant!r} opened after the same claim "
            "(one decision at a time: open yours when that one is settled)",
        )
    seat = None if deciding is None else deciding.player
    if now is None or now.player != seat or now.kind in frozenset(PendingKind):
        _bad(
            impl,
            f"may leave the pending decision as it is or open a variant decision of seat "
            f"{seat} (the seat deciding the claim: effects.set_pending), not wait for {now!r}",
        )


def check_state(impl: HookImpl, before: GameState, after: GameState) -> None:
    """Everything a hook may not break: board, rules, seats, variant state, card count."""
    if after.board is not before.board or after.rules != before.rules:
        _bad(impl, "returned a state of another game (its board or rules differ)")
    if len(after.players) != len(before.players) or len(after.owners) != len(before.owners):
        _bad(impl, "returned a state with a different number of seats or routes")
    if not all(isinstance(p, PlayerState) and isinstance(p.hand, Hand) for p in after.players):
        _bad(impl, "returned a state whose players are not PlayerState objects with a Hand")
    pending = after.pending
    if (pending is None) != (after.termination is not None):
        _bad(impl, "returned a state with no pending decision that is not over (or the reverse)")
    if pending is not None and (
        not isinstance(pending, Pending)
        or isinstance(pending.player, bool)
        or not isinstance(pending.player, int)
        or not 0 <= pending.player < len(after.players)
    ):
        _bad(impl, f"returned a state waiting for {pending!r}, which is no seat's decision")
    slots = after.variant_state
    if not isinstance(slots, tuple):
        _bad(impl, f"returned variant state that is not a tuple but {_kind(slots)}")
    old = dict(before.variant_state)
    keys = []
    for slot in slots:
        if not (isinstance(slot, tuple) and len(slot) == 2 and isinstance(slot[0], str)):
            _bad(impl, f"returned a variant state entry that is not a (key, value) pair: {slot!r}")
        key, value = slot
        keys.append(key)
        if (key not in old or old[key] is not value) and not _hashable(value):
            _bad(
                impl, f"stored an unhashable value under variant state key {key!r}: {_kind(value)}"
            )
    if keys != sorted(set(keys)):
        _bad(impl, "returned variant state whose keys are not sorted and unique")
    if impl.hook == "ttr_setup":
        for key in keys:
            if key not in old and key != impl.variant and not key.startswith(impl.variant + "."):
                _bad(
                    impl,
                    f"created variant state key {key!r}: keys start with the variant name "
                    f"({impl.variant!r} or {impl.variant + '.…'!r})",
                )
    cards = (
        len(after.deck)
        + sum(1 for card in after.display if card is not None)
        + sum(after.discard)
        + sum(p.hand.total for p in after.players)
    )
    if cards != after.board.total_cards or any(n < 0 for p in after.players for n in p.hand.counts):
        _bad(
            impl,
            f"returned a state holding {cards} cards (with any negative counts) where the game "
            f"has {after.board.total_cards}: use the effect helpers in ttr_core.effects",
        )
    placed = ticket_places(after)
    if sorted(placed) != list(range(len(after.board.tickets))):
        _bad(
            impl,
            f"returned a state whose tickets are not each in one place ({len(placed)} placed, "
            f"{len(after.board.tickets)} in the game): use the effect helpers in ttr_core.effects",
        )


def ticket_places(state: GameState) -> list[int]:
    """Every ticket id where the state holds it: ticket deck and discard pile, each
    seat's tickets, the tickets on offer, those dealt to seats still to choose and
    those boxed (out of the game)."""
    offered = state.pending.offered if state.pending is not None else ()
    waiting = [t for offer in state.start_offers for t in offer]
    held = [t for p in state.players for t in p.tickets]
    return [
        *state.ticket_deck,
        *state.ticket_discard,
        *held,
        *offered,
        *waiting,
        *state.boxed_tickets,
    ]


def still_over(impl: HookImpl, state: GameState) -> None:
    """``ttr_game_over`` must leave the game over."""
    if state.termination is None or state.pending is not None:
        _bad(impl, "returned a state that is no longer over")


# ---------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------


def veto_reason(impl: HookImpl, reason: object) -> str:
    """``ttr_veto_action``: a sentence (non-empty string) or ``None``."""
    if not isinstance(reason, str) or not reason:
        _bad(impl, f"must return a reason (a non-empty string) or None, not {_kind(reason)}")
    return reason


def filtered(
    impl: HookImpl, actions: Sequence[Action], result: object, *, strict: bool
) -> Sequence[Action]:
    """``ttr_filter_actions``: a subset of the candidates.

    A result as long as its input removed nothing: the candidates are kept
    as they were (checked to be the same actions only in strict mode). A
    shorter one is checked in full: hashable actions, each a candidate, none
    twice. The actions returned are the candidate objects themselves (an
    equal copy a filter returned is replaced by its candidate), so that the
    core tells kept from removed ones by identity (``FilteredOut``).
    """
    kept = result if type(result) is list else list(_sequence(impl, result, "actions"))
    if len(kept) > len(actions):
        _bad(
            impl, f"returned {len(kept)} actions from {len(actions)} candidates: it may only remove"
        )
    if len(kept) == len(actions) and not strict:
        return actions
    # The usual filter keeps some of the objects it was given: checked by
    # identity (ids hash as ints, in C), hashing no action. The core's
    # candidates are distinct, so distinct objects are distinct actions.
    if len(set(map(id, kept))) == len(kept) and set(map(id, actions)).issuperset(map(id, kept)):
        return actions if len(kept) == len(actions) else kept
    candidates = set(actions)
    for action in kept:
        if not isinstance(action, Action) or not _hashable(action):
            _bad(impl, f"returned {_kind(action)}, which is not one of the candidate actions")
        if action not in candidates:
            _bad(impl, f"returned {action!r}, which is not one of the candidates")
    if len(set(kept)) != len(kept):
        _bad(impl, "returned an action twice")
    if len(kept) == len(actions):
        return actions
    same = {action: action for action in actions}
    return [same[action] for action in kept]


def extra_actions(impl: HookImpl, result: object, seat: int) -> Sequence[Action]:
    """``ttr_extra_actions``: hashable actions of the seat to decide."""
    found = _sequence(impl, result, "actions")
    for action in found:
        if not isinstance(action, Action):
            _bad(impl, f"must return ttr_core.Action objects, not {_kind(action)}")
        if action.player != seat or type(action.player) is not int:
            _bad(
                impl,
                f"returned {action!r} for seat {action.player!r}, but seat {seat} is to decide",
            )
        if not _hashable(action):
            _bad(impl, f"returned an unhashable action {action!r}: use @attrs.frozen")
    return found


# ---------------------------------------------------------------------------
# Scoring and views
# ---------------------------------------------------------------------------


def score_lines(impl: HookImpl, result: object, seats: int) -> list[tuple[ScoreLine, ...]]:
    """``ttr_score_lines``: one sequence of ScoreLines (whole points) per seat."""
    if result is None:
        return [() for _ in range(seats)]
    per_seat = _sequence(impl, result, "per-seat line lists")
    if len(per_seat) != seats:
        _bad(impl, f"returned lines for {len(per_seat)} seats; the game has {seats}")
    checked = []
    for seat, lines in enumerate(per_seat):
        lines = _sequence(impl, lines, f"ScoreLine (seat {seat})")
        for line in lines:
            if not isinstance(line, ScoreLine):
                _bad(impl, f"returned {_kind(line)} for seat {seat}, not a ScoreLine")
            if isinstance(line.points, bool) or not isinstance(line.points, int):
                _bad(impl, f"scored {line.points!r} for seat {seat}: points are whole numbers")
            if line.shown not in ("all", "owner", "end"):
                _bad(impl, f"marked a line shown={line.shown!r}: use 'all', 'owner' or 'end'")
        checked.append(tuple(lines))
    return checked


def tie_break(impl: HookImpl, tied: tuple[int, ...], result: object) -> tuple[int, ...]:
    """``ttr_tie_break``: a non-empty subset of the tied seats."""
    winners = _sequence(impl, result, "seats")
    if not winners or any(seat not in tied or type(seat) is not int for seat in winners):
        _bad(impl, f"must return a non-empty subset of the tied seats {tied}, not {winners!r}")
    return tuple(seat for seat in tied if seat in winners)


def view(impl: HookImpl, result: object, owner: Mapping[str, str]) -> Mapping[str, Any]:
    """``ttr_player_view``: keys prefixed with the variant name, clashing with no other's."""
    if not isinstance(result, Mapping):
        _bad(impl, f"must return a mapping of view keys to values, not {_kind(result)}")
    prefix = impl.variant + "."
    for key in result:
        if not isinstance(key, str) or not (key == impl.variant or key.startswith(prefix)):
            _bad(impl, f"returned view key {key!r}: keys start with {prefix!r}")
        if key in owner:
            _bad(impl, f"returned view key {key!r}, which variant {owner[key]!r} shows already")
    return result


def ticket_connections(impl: HookImpl, result: object, routes: int) -> list[int]:
    """``ttr_ticket_connections``: ``None`` or any iterable of route ids of the
    board, read at once and at most one item per route (bounded)."""
    if result is None:
        return []
    if isinstance(result, (str, bytes, bytearray, Mapping)) or not isinstance(result, Iterable):
        _bad(impl, f"must return an iterable of route ids or None, not {_kind(result)}")
    found = _read(impl, result, routes)
    if len(found) > routes:
        _bad(impl, f"returned more than {routes} route ids (the board has {routes} routes)")
    for route in found:
        if type(route) is not int or not 0 <= route < routes:
            _bad(impl, f"returned {_kind(route)}: a route id is a whole number 0 to {routes - 1}")
    return found


def ticket_ends(impl: HookImpl, result: object, locations: int) -> TicketEnds:
    """``ttr_ticket_ends``: a :class:`TicketEnds` of the board's location ids,
    with one goal or more, whole points of at least 1 and a loss of 0 or more."""
    if not isinstance(result, TicketEnds):
        _bad(impl, f"must return a ttr_core.TicketEnds or None, not {_kind(result)}")

    def ids(what: str, places: object) -> None:
        if not isinstance(places, tuple) or not places:
            _bad(impl, f"returned {what} {_kind(places)}: at least one location id")
        for place in places:
            if type(place) is not int or not 0 <= place < locations:
                _bad(impl, f"returned {what} naming {_kind(place)}: ids are 0 to {locations - 1}")

    ids("a start", result.start)
    if not isinstance(result.goals, tuple) or not 1 <= len(result.goals) <= MAX_GOALS:
        _bad(impl, f"returned {_kind(result.goals)} goals: 1 to {MAX_GOALS} TicketGoals")
    for goal in result.goals:
        if not isinstance(goal, TicketGoal):
            _bad(impl, f"returned a goal that is no TicketGoal but {_kind(goal)}")
        ids("a goal", goal.places)
        if type(goal.points) is not int or not 1 <= goal.points <= MAX_TICKET_POINTS:
            _bad(impl, f"returned goal points {_kind(goal.points)}: 1 to {MAX_TICKET_POINTS}")
        if not isinstance(goal.name, str) or not goal.name or len(goal.name) > 100:
            _bad(impl, f"returned a goal named {_kind(goal.name)}: a name of 1 to 100 characters")
    if type(result.lost) is not int or not 0 <= result.lost <= MAX_TICKET_POINTS:
        _bad(impl, f"returned lost {_kind(result.lost)}: 0 to {MAX_TICKET_POINTS} points")
    return result


#: Most goals of one ticket, and most points a goal wins or a ticket loses.
MAX_GOALS = 50
MAX_TICKET_POINTS = 1000


def dealt_tickets(
    impl: HookImpl, result: object, deck: tuple[int, ...], count: int
) -> tuple[int, ...]:
    """``ttr_deal_tickets``: exactly ``min(count, len(deck))`` distinct ids of the ticket deck."""
    if isinstance(result, (str, bytes, bytearray, Mapping)) or not isinstance(result, Iterable):
        _bad(impl, f"must return a sequence of ticket ids or None, not {_kind(result)}")
    want = min(count, len(deck))
    found = _read(impl, result, want)
    on_deck = set(deck)
    if len(found) != want:
        _bad(impl, f"dealt {len(found)} ticket(s) where {want} are dealt")
    for ticket in found:
        if type(ticket) is not int or ticket not in on_deck:
            _bad(impl, f"dealt {_kind(ticket)}, which is not a ticket id on the ticket deck")
    if len(set(found)) != len(found):
        _bad(impl, f"dealt a ticket twice ({found})")
    return tuple(found)


def action_purpose(impl: HookImpl, result: object, routes: int, locations: int) -> ActionPurpose:
    """``ttr_agent_action_purpose``: a purpose naming a route or location id of the
    board, with finite costs and gains and a whole number of wilds from 0."""
    if isinstance(result, Gains):
        pass
    elif isinstance(result, ClaimsRoute | ClosesRoute):
        if type(result.route) is not int or not 0 <= result.route < routes:
            _bad(impl, f"named route {_kind(result.route)}: a route id is 0 to {routes - 1}")
    elif isinstance(result, BuildsToken):
        where = result.location
        if type(where) is not int or not 0 <= where < locations:
            _bad(impl, f"named location {_kind(where)}: a location id is 0 to {locations - 1}")
    else:
        wanted = "ClaimsRoute, BuildsToken, ClosesRoute, Gains or None"
        _bad(impl, f"must return {wanted}, not {_kind(result)}")
    for name in ("extra_cost", "cost", "points"):
        cost = getattr(result, name, 0.0)
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not math.isfinite(cost):
            _bad(impl, f"returned {name} {_kind(cost)}: costs are finite numbers")
    wilds = getattr(result, "wilds", 0)
    if type(wilds) is not int or wilds < 0:
        _bad(impl, f"returned wilds {_kind(wilds)}: a count of wild cards is a whole number from 0")
    return result


def route_costs(impl: HookImpl, result: object, routes: int) -> list[float]:
    """``ttr_agent_route_costs``: one finite number per route of the board."""
    costs = _sequence(impl, result, f"{routes} numbers, one per route")
    if len(costs) != routes:
        _bad(impl, f"must return one number per route ({routes}), not {len(costs)}")
    for route, cost in enumerate(costs):
        if isinstance(cost, bool) or not isinstance(cost, int | float) or not math.isfinite(cost):
            _bad(impl, f"returned {_kind(cost)} for route {route}: costs are finite numbers")
    return [float(cost) for cost in costs]


def description(impl: HookImpl, result: object) -> str | None:
    """``ttr_describe_action``: ``None`` or one line of words."""
    if result is None:
        return None
    if type(result) is not str or not result.strip() or "\n" in result or len(result) > 1000:
        _bad(impl, f"must return one line of words (a str) or None, not {_kind(result)}")
    return result


#: The longest line of words a front-end hook may return, in characters.
WORDS_LENGTH = 200
#: The most lines ``ttr_view_words`` and ``ttr_move_notes`` may return per call.
WORDS_LINES = 20


def _words(impl: HookImpl, value: object, name: str, *, empty: bool = False) -> str:
    if type(value) is not str or (not empty and not value.strip()):
        _bad(impl, f"returned {name} {_kind(value)}: one line of words (a str) is wanted")
    if len(value) > WORDS_LENGTH or not value.isprintable():
        _bad(impl, f"returned {name} of over {WORDS_LENGTH} characters or not one printable line")
    return value


#: The words ``ttr play`` takes for itself: a variant's ``MoveWords.command``
#: is none of them (nor ``f1``, ``f2``, ...: the face-up slots).
RESERVED_COMMANDS = frozenset(
    {"?", "h", "help", "s", "scores", "r", "routes", "l", "look", "m", "moves", "q", "quit"}
    | {"resign", "c", "claim", "k", "keep", "b", "t", "p"}
)


def word_lines(impl: HookImpl, result: object) -> list[str]:
    """``ttr_view_words``, ``ttr_move_notes``: ``None``, or at most
    :data:`WORDS_LINES` lines of words, each one printable line of at most
    :data:`WORDS_LENGTH` characters."""
    if result is None:
        return []
    if isinstance(result, (str, bytes, bytearray)) or not isinstance(result, Iterable):
        _bad(impl, f"must return a sequence of lines (str) or None, not {_kind(result)}")
    found = _read(impl, result, WORDS_LINES)
    if len(found) > WORDS_LINES:
        _bad(impl, f"returned more than {WORDS_LINES} lines")
    return [_words(impl, line, "a line") for line in found]


def move_words(impl: HookImpl, result: object, board: Board) -> MoveWords | None:
    """``ttr_move_words``: ``None`` or a :class:`MoveWords` of printable lines,
    its place a location id and its route a route id of the board."""
    if result is None:
        return None
    if not isinstance(result, MoveWords):
        _bad(impl, f"must return a MoveWords or None, not {_kind(result)}")
    _words(impl, result.text, "text")
    for name in ("group", "choice", "command"):
        _words(impl, getattr(result, name), name, empty=True)
    command = result.command
    if command and (
        not re.fullmatch(r"[a-z][a-z0-9]{0,11}", command)
        or command in RESERVED_COMMANDS
        or re.fullmatch(r"f\d+", command)
    ):
        _bad(
            impl,
            f"returned command {_kind(command)}: one lower-case word of 1 to 12 letters "
            "or digits, not one of the terminal's own (RESERVED_COMMANDS, f1, f2, ...)",
        )
    place, route = result.place, result.route
    if place is not None and (type(place) is not int or not 0 <= place < len(board.locations)):
        _bad(impl, f"returned place {_kind(place)}: a location id of the map or None")
    if route is not None and (type(route) is not int or not 0 <= route < len(board.routes)):
        _bad(impl, f"returned route {_kind(route)}: a route id of the map or None")
    notes = result.notes
    if not isinstance(notes, tuple) or len(notes) > WORDS_LINES:
        _bad(impl, f"returned notes {_kind(notes)}: a tuple of at most {WORDS_LINES} lines")
    for note in notes:
        _words(impl, note, "a note")
    return result


def tokens(impl: HookImpl, result: object, board: Board, players: int) -> list[Token]:
    """``ttr_tokens``: any iterable of :class:`Token` at the board's locations,
    owned by a seat or nobody, with a short kind."""
    if isinstance(result, (str, bytes, bytearray)) or not isinstance(result, Iterable):
        _bad(impl, f"must return an iterable of Token objects or None, not {_kind(result)}")
    limit = 4 * len(board.locations) + 100
    found = _read(impl, result, limit)
    if len(found) > limit:
        _bad(impl, f"returned more than {limit} tokens")
    for token in found:
        if not isinstance(token, Token):
            _bad(impl, f"must return Token objects, not {_kind(token)}")
        location, owner, kind = token.location, token.owner, token.kind
        if type(location) is not int or not 0 <= location < len(board.locations):
            _bad(impl, f"returned a token at {_kind(location)}: not a location id of the map")
        if owner is not None and (type(owner) is not int or not 0 <= owner < players):
            _bad(impl, f"returned a token owned by {_kind(owner)}: not None or a seat")
        if type(kind) is not str or not kind.strip() or len(kind) > 40 or not kind.isprintable():
            _bad(impl, f"returned a token of kind {_kind(kind)}: a short word is wanted")
    return found


#: The longest legend line of a route style, in characters.
LEGEND_LENGTH = 100


def route_styles(impl: HookImpl, result: object, board: Board) -> list[RouteStyle]:
    """``ttr_route_styles``: any iterable of :class:`RouteStyle` on the board's
    routes, each with at most as many wild spaces as the route has spaces, a
    field name or ``None`` and a one-line legend; an empty legend becomes the
    variant's name and what the style draws."""
    if isinstance(result, (str, bytes, bytearray)) or not isinstance(result, Iterable):
        _bad(impl, f"must return an iterable of RouteStyle objects or None, not {_kind(result)}")
    routes = board.routes
    limit = 4 * len(routes) + 100
    found = _read(impl, result, limit)
    if len(found) > limit:
        _bad(impl, f"returned more than {limit} route styles")
    styles = []
    for style in found:
        if not isinstance(style, RouteStyle):
            _bad(impl, f"must return RouteStyle objects, not {_kind(style)}")
        route, outline, wilds = style.route, style.outline, style.wild_spaces
        field, legend = style.field, style.legend
        if type(route) is not int or not 0 <= route < len(routes):
            _bad(impl, f"returned a style of route {_kind(route)}: not a route id of the map")
        if type(outline) is not bool:
            _bad(impl, f"returned outline {_kind(outline)} for route {route}: True or False")
        length = routes[route].length
        if type(wilds) is not int or not 0 <= wilds <= length:
            _bad(
                impl,
                f"returned wild_spaces {_kind(wilds)} for route {route}: a whole number "
                f"from 0 to its {length} spaces",
            )
        if field is not None and (type(field) is not str or not field.isidentifier()):
            _bad(impl, f"returned field {_kind(field)} for route {route}: a field name or None")
        if (
            type(legend) is not str
            or len(legend) > LEGEND_LENGTH
            or not (legend.isprintable() and legend.strip() == legend)
        ):
            _bad(
                impl,
                f"returned legend {_kind(legend)} for route {route}: one line of at most "
                f"{LEGEND_LENGTH} characters is wanted",
            )
        if not legend:
            drawn = [
                *(["outlined"] if outline else []),
                *(["a wild card in each marked space"] if wilds else []),
            ]
            style = attrs.evolve(style, legend=f"{impl.variant}: {', '.join(drawn) or 'plain'}")
        styles.append(style)
    return styles


def non_seat_owners(
    impl: HookImpl, result: object, state: GameState, found: Sequence[NonSeatOwner]
) -> list[NonSeatOwner]:
    """``ttr_non_seat_owners``: owners numbered from ``num_players`` up, each declared once."""
    owners = list(_sequence(impl, result, "NonSeatOwner objects"))
    taken = {o.owner for o in found}
    for owner in owners:
        if not isinstance(owner, NonSeatOwner):
            _bad(impl, f"must return NonSeatOwner objects, not {_kind(owner)}")
        number, cars = owner.owner, owner.cars
        if isinstance(number, bool) or not isinstance(number, int) or number < state.num_players:
            _bad(
                impl,
                f"declared owner {number!r}: a non-seat owner is a number from "
                f"{state.num_players} up (0 to {state.num_players - 1} are the seats)",
            )
        if number in taken:
            _bad(impl, f"declared owner {number} twice (or another variant declares it)")
        taken.add(number)
        if not isinstance(owner.name, str) or not owner.name:
            _bad(impl, f"owner {number}: the name must be a non-empty string, not {owner.name!r}")
        if cars is not None and (isinstance(cars, bool) or not isinstance(cars, int) or cars < 0):
            _bad(impl, f"owner {number}: cars must be a whole number ≥ 0 or None, not {cars!r}")
        if owner.routes:
            _bad(impl, f"owner {number}: leave routes empty, the core fills them in")
    return owners


# ---------------------------------------------------------------------------
# Determinization
# ---------------------------------------------------------------------------


def determinized(impl: HookImpl, before: GameState, result: object) -> GameState:
    """``ttr_determinize``: ``None`` keeps ``before``; else a consistent state of the same
    game (the full state check) whose new variant state keys start with the variant
    name and whose visible core facts (hands, tickets held, cars, routes, scores,
    owners, display, ticket discard pile, turn, end, whose decision of what kind and
    how many tickets are on offer) are those of ``before``: the hook sets variant
    state (and the data of a variant's own pending decision), and may re-deal
    hidden tickets (which ticket a seat holds or is offered, keeping the numbers,
    and the ticket deck and box: a variant dealing by a ticket field, one long
    ticket per seat); ``determinize`` then checks the viewer's view is unchanged."""
    if result is None:
        return before
    if not isinstance(result, GameState):
        _bad(impl, f"must return a GameState or None, not {_kind(result)}")
    check_state(impl, before, result)
    old = dict(before.variant_state)
    for key, _ in result.variant_state:
        if key not in old and key != impl.variant and not key.startswith(impl.variant + "."):
            _bad(
                impl,
                f"created variant state key {key!r}: keys start with the variant name "
                f"({impl.variant!r} or {impl.variant + '.…'!r})",
            )
    changed = [
        name
        for name in ("owners", "display", "ticket_discard", "turn", "final_turns", "passes")
        if getattr(result, name) != getattr(before, name)
    ]
    if result.termination != before.termination:
        changed.append("termination")
    # Hidden offers may be re-dealt (a deal by a ticket field), keeping their
    # sizes; determinize then checks that the viewer's own offer is unchanged.
    if [len(o) for o in result.start_offers] != [len(o) for o in before.start_offers]:
        changed.insert(0, "start_offers")
    if [_ticket_count(p) for p in result.players] != [_ticket_count(p) for p in before.players]:
        changed.insert(0, "players")
    a, b = before.pending, result.pending
    if (a is None) != (b is None) or (
        a is not None
        and b is not None
        and (a.kind, a.player, len(a.offered), a.min_keep)
        != (b.kind, b.player, len(b.offered), b.min_keep)
    ):
        changed.append("pending")
    if changed:
        _bad(
            impl,
            f"changed what the view shows ({', '.join(changed)}): it may set the variant's "
            "state and the data of the variant's own pending decision, nothing else",
        )
    return result


def _ticket_count(player: PlayerState) -> PlayerState:
    """``player`` with its tickets as their number only: what other seats see of them."""
    return attrs.evolve(player, tickets=(len(player.tickets),))
