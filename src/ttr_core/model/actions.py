"""Actions: one frozen class per decision a player can make.

Every action names the seat that takes it, so ``apply`` can refuse an action
made out of turn. Actions are values: equal actions compare and hash equal,
so an app can test ``action in legal_actions(state)``.

Fields are not checked when an action is built (``legal_actions`` builds
many), but by ``apply``: it refuses an action whose fields are not exactly of
their types (a seat of ``0.0`` or ``False`` equals seat 0, yet is none).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

import attrs

from ttr_core.errors import ArgumentError

#: The most ticket ids a :class:`KeepTickets` is built from (a map has at most 1,000 tickets).
MAX_KEPT = 1000


def _ticket_set(tickets: Iterable[int]) -> frozenset[int]:
    try:
        # A bounded read: an endless iterable is refused, not followed.
        items = list(itertools.islice(tickets, MAX_KEPT + 1))
        kept = frozenset(items)
    except Exception:  # not iterable, unhashable items, or a hostile iterable
        found = (
            f"a {type(tickets).__name__} holding something unhashable"
            if isinstance(tickets, Iterable)
            else type(tickets).__name__
        )
        raise ArgumentError(
            f"KeepTickets.tickets must be an iterable of ticket ids (ints), not {found}"
        ) from None
    if len(items) > MAX_KEPT:
        raise ArgumentError(f"KeepTickets.tickets holds at most {MAX_KEPT} ticket ids")
    return kept


@attrs.frozen
class Action:
    """Base class of every action; ``player`` is the seat taking it."""

    player: int


@attrs.frozen
class DrawBlind(Action):
    """Take the top card of the transportation deck."""


@attrs.frozen
class DrawFaceUp(Action):
    """Take the face-up card in display slot ``slot`` (0-based)."""

    slot: int


@attrs.frozen
class ClaimRoute(Action):
    """Claim route ``route``, paying ``wilds`` wild cards and the rest in ``color``.

    ``color`` is the colour of the non-wild cards paid; it is ``None`` exactly
    when the route is paid with wilds alone (``wilds`` equal to its length).
    For a coloured route it must be the route's colour; for a gray route any
    one card colour.
    """

    route: int
    color: str | None
    wilds: int


@attrs.frozen
class DrawTickets(Action):
    """Draw destination tickets; a :class:`KeepTickets` decision follows."""


@attrs.frozen
class KeepTickets(Action):
    """Keep ``tickets`` (ids) of those offered; the rest are returned.

    Any iterable of ids is stored as a frozenset (``ArgumentError`` for one
    that is not iterable or holds something unhashable).
    """

    tickets: frozenset[int] = attrs.field(converter=_ticket_set)


_new_action = object.__new__
_set_field = object.__setattr__


def keep_choices(seat: int, offered: Iterable[int], least: int) -> list[Action]:
    """Every :class:`KeepTickets` of ``seat`` keeping at least ``least`` of ``offered``.

    Built without the converter that checks a user's ``tickets`` (the subsets
    are frozensets of the offer's ids already): ``legal_actions`` lists one
    per subset at every ticket choice, and the check cost a few per cent of a
    random game.
    """
    offered = tuple(offered)
    choices: list[Action] = []
    for size in range(least, len(offered) + 1):
        for subset in itertools.combinations(offered, size):
            keep = _new_action(KeepTickets)
            _set_field(keep, "player", seat)
            _set_field(keep, "tickets", frozenset(subset))
            choices.append(keep)
    return choices


@attrs.frozen
class Pass(Action):
    """Do nothing: legal only when no other action is (engine decision E1)."""


#: The core's action classes (variants add their own).
CORE_ACTIONS: tuple[type[Action], ...] = (
    DrawBlind,
    DrawFaceUp,
    ClaimRoute,
    DrawTickets,
    KeepTickets,
    Pass,
)
