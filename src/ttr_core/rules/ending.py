"""Ending a game early: a resignation, a timeout, an abandoned game.

The rules of the board game have no such ending; servers need one. The rule
(``docs/rules.md``, "Ending a game early"):

- The game stops where it stands: no further turn, no final round. Tickets
  on offer (a pending choice, or starting offers not yet chosen) go where
  unchosen tickets of that choice go (the map's ``returned``, or for
  starting tickets its ``start_returned``: on Europe the box), so every
  ticket stays in one place.
- Every seat is scored as the game stands, with every end-of-game line
  (routes, tickets completed and failed, bonuses).
- ``RESIGNATION`` and ``TIMEOUT`` name a seat (:attr:`GameState.forfeit`):
  that seat loses, whatever its score. The winners are the best of the
  other seats, by the usual rule and tie-breaks.
- ``ABANDONED`` names no seat: the game has no winner.
"""

from __future__ import annotations

from typing import Any

from ttr_core.errors import ArgumentError, IllegalAction, Reason, show, what
from ttr_core.hooks import calls
from ttr_core.model.state import (
    EARLY_ENDINGS,
    GameState,
    PendingKind,
    Termination,
    check_state,
    replace_state,
)
from ttr_core.rules.kernel.rules import returned_tickets

__all__ = ["end_game"]


def end_game(state: GameState, how: Termination | str, seat: int | None = None) -> GameState:
    """The state of ``state``'s game ended early: ``how`` is
    :attr:`Termination.RESIGNATION` or :attr:`Termination.TIMEOUT` with the
    ``seat`` that resigned or ran out of time, or :attr:`Termination.ABANDONED`
    with no seat. Pure: ``state`` is not changed.

    Any seat may resign at any time, not only the seat to decide. Raises
    :class:`IllegalAction` (``game_over``) if the game is already over and
    :class:`ArgumentError` for any other ``how``, a missing or extra seat, or
    a seat that is not one of the game's.
    """
    check_state(state)
    try:
        ending = Termination(how) if isinstance(how, str) else None
    except ValueError:
        ending = None
    if ending not in EARLY_ENDINGS:
        raise ArgumentError(
            f"how must be one of {', '.join(repr(str(t)) for t in EARLY_ENDINGS)}, "
            f"not {show(how) if isinstance(how, str) else what(how)}"
        )
    assert ending is not None
    if EARLY_ENDINGS[ending]:
        if type(seat) is not int or not 0 <= seat < state.num_players:
            raise ArgumentError(
                f"a {ending} names the seat that loses: a seat from 0 to "
                f"{state.num_players - 1}, not {show(seat)}"
            )
    elif seat is not None:
        raise ArgumentError(f"an {ending} game names no seat, not {show(seat)}")
    pending = state.pending
    if pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over already: it cannot end again")
    # Tickets still on offer go back as unchosen ones do (conservation holds):
    # starting offers by the map's rule for them, a draw's by its ``returned``.
    mr = state.board.rules
    offered = pending.offered
    starting = tuple(t for offer in state.start_offers for t in offer)
    if pending.kind == PendingKind.START_TICKETS:
        offered, starting = (), offered + starting
    changes: dict[str, Any] = {}
    deck, pile, box = state.ticket_deck, state.ticket_discard, state.boxed_tickets
    for where, unchosen in ((mr.returned_tickets, offered), (mr.start_returned_tickets, starting)):
        if not unchosen:
            continue
        if where == "box":
            box = changes["boxed_tickets"] = box + unchosen
        else:
            deck, pile = returned_tickets(deck, pile, unchosen, where)
            changes["ticket_deck"], changes["ticket_discard"] = deck, pile
    ended = replace_state(
        state,
        pending=None,
        start_offers=(),
        termination=ending,
        forfeit=seat,
        **changes,
    )
    rules = state.rules
    return calls.run_game_over(rules, ended) if rules.game_over else ended
