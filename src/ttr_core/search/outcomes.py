"""How games end and where play stalls, counted the same way by the simulator
and ``ttr verify``: the failure states (an empty deck, a display that cannot
be reset ...) and the statistics of a finished game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from ttr_core.model.actions import (
    Action,
    Pass,
)
from ttr_core.model.board import Board

__all__ = ["display_guard_hit", "failure_states", "plain_statistics"]


class Supply(Protocol):
    """What the failure states of a decision are read from: a :class:`GameState`,
    or the rules kernel's working state during a simulation (one copy of each
    definition for both)."""

    @property
    def board(self) -> Board: ...
    @property
    def deck(self) -> Sequence[int]: ...
    @property
    def discard(self) -> Sequence[int]: ...
    @property
    def display(self) -> Sequence[int | None]: ...
    @property
    def ticket_deck(self) -> Sequence[int]: ...
    @property
    def ticket_discard(self) -> Sequence[int]: ...


def display_guard_hit(state: Supply) -> bool:
    """Whether the display shows more wilds than the map allows because no reset
    could help (engine decision E3): what ``ttr verify`` counts as a guard hit."""
    board = state.board
    return state.display.count(board.wild) > board.rules.max_face_up_wilds


def failure_states(state: Supply, legal: Sequence[Action]) -> list[str]:
    """The failure states a seat deciding in ``state`` with ``legal`` actions is in,
    by name: ``only_pass`` (only ``Pass``, E1), ``e3_guard``
    (:func:`display_guard_hit`, E3), ``supply_empty`` (deck and discard pile
    empty, E4) and ``tickets_empty`` (no ticket left to draw, E6): states the
    printed rules leave open. ``ttr verify`` and ``ttr simulate`` count them
    by these names. An empty deck alone is none (see :func:`plain_statistics`)."""
    found = []
    if len(legal) == 1 and type(legal[0]) is Pass:
        found.append("only_pass")
    if display_guard_hit(state):
        found.append("e3_guard")
    if not state.deck and not any(state.discard):
        found.append("supply_empty")
    if not state.ticket_deck and not state.ticket_discard:
        found.append("tickets_empty")
    return found


def plain_statistics(state: Supply) -> list[str]:
    """The plain statistics (no failure) of a decision in ``state``, by name:
    ``deck_empty`` when the card deck is empty, whatever the discard pile
    holds (the pile is shuffled in when a card is needed, as the rules say;
    both empty is also the failure state ``supply_empty``). ``ttr verify``
    and ``ttr simulate`` count them beside the failure states."""
    return [] if state.deck else ["deck_empty"]
