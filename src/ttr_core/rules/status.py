"""A seat's whole status in one call: what a server sends one seat.

:func:`seat_status` gathers what a seat may know of a game at one point —
its :class:`~ttr_core.PlayerView`, its own legal actions and their ids (none
while another seat decides: a ticket choice names the tickets on offer),
every seat's score sheet as it may see them and, once the game is over, the
final scores — so that a server cannot forget a filter. ``to_data`` writes it
as one JSON object and ``from_data(data, SeatStatus)`` reads it back with
every check of the parts it holds (a client's side).
"""

from __future__ import annotations

import attrs

from ttr_core.errors import ArgumentError, UnsupportedVariantError, show
from ttr_core.model.actions import Action
from ttr_core.model.scores import FinalScores, ScoreSheet
from ttr_core.model.state import GameState, check_state
from ttr_core.model.views import PlayerView
from ttr_core.rules.action_ids import check_all_numbered, legal_action_ids
from ttr_core.rules.engine import legal_actions
from ttr_core.rules.scoring import final_scores, player_score_sheets
from ttr_core.rules.views import player_view

__all__ = ["SeatStatus", "seat_status"]


@attrs.frozen
class SeatStatus:
    """Everything one seat may know of a game at one point (:func:`seat_status`).

    ``legal`` holds the seat's own legal actions (empty while another seat
    decides, and once the game is over) and ``legal_ids`` their action ids
    in the same order (``None`` when a variant of the game has actions
    without ids: :mod:`ttr_core.rules.action_ids`). ``sheets`` is every seat's
    score sheet as this seat may see it (:func:`~ttr_core.player_score_sheets`);
    ``scores`` the final scores once the game is over, else ``None``.
    """

    seat: int
    ply: int
    view: PlayerView
    legal: tuple[Action, ...]
    legal_ids: tuple[int, ...] | None
    sheets: tuple[ScoreSheet, ...]
    scores: FinalScores | None = None

    @property
    def to_decide(self) -> bool:
        """Whether the seat decides now (it has legal actions)."""
        return bool(self.legal)

    @property
    def is_over(self) -> bool:
        """Whether the game is over."""
        return self.view.is_over


def seat_status(state: GameState, seat: int) -> SeatStatus:
    """What ``seat`` may know of ``state`` now, in one value: its view, its own
    legal actions with their ids, every seat's score sheet as it may see them
    and, once the game is over, the final scores.

    Raises :class:`ArgumentError` for a ``state`` that is not a
    :class:`GameState` or a ``seat`` that is not one of its seats.
    """
    check_state(state)
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise ArgumentError(
            f"seat must be a seat from 0 to {state.num_players - 1}, not {show(seat)}"
        )
    legal = legal_actions(state, seat)
    ids: tuple[int, ...] | None
    try:
        check_all_numbered(state.rules, "seat_status")
    except UnsupportedVariantError:  # a variant whose own actions have no ids
        ids = None
    else:
        ids = legal_action_ids(state) if legal else ()
    return SeatStatus(
        seat=seat,
        ply=state.ply,
        view=player_view(state, seat),
        legal=legal,
        legal_ids=ids,
        sheets=player_score_sheets(state, seat),
        scores=final_scores(state) if state.is_over else None,
    )
