"""Score sheets: a seat's labelled lines and their total, and the final scores
of a finished game (the values; :mod:`ttr_core.rules.scoring` works them out).
"""

from __future__ import annotations

import attrs

from ttr_core.model.declarations import NonSeatOwner
from ttr_core.model.state import Termination


@attrs.frozen
class ScoreLine:
    """One line of a score sheet.

    ``kind`` groups lines (``"start"``, ``"routes"``, ``"play"`` for points a
    variant added during play, ``"ticket"``, or a variant's name); ``ref`` is
    the ticket id for ticket lines; ``detail`` optional supporting facts (e.g.
    the attractions touched).
    """

    kind: str
    label: str
    points: int
    ref: int | None = None
    detail: tuple[str, ...] = ()
    #: Who may see the line during play (:func:`player_score_sheets`):
    #: ``"all"`` for public facts, ``"owner"`` for the sheet's own seat only
    #: (its tickets), ``"end"`` for no seat until the game is over (a bonus
    #: ranked by secret values). Every line is shown once the game is over.
    shown: str = "all"


@attrs.frozen
class ScoreSheet:
    """A player's final score: the lines and their total.

    ``total`` is computed from the running score kept during play plus the
    end-of-game lines, so a test that it equals the sum of ``lines`` checks
    the route points recounted from the board against those scored in play.
    """

    player: int
    lines: tuple[ScoreLine, ...]
    total: int
    tickets_completed: int
    tickets_failed: int


@attrs.frozen
class FinalScores:
    """Every player's score sheet, the winners (after the tie-break) and how the game ended."""

    sheets: tuple[ScoreSheet, ...]
    winners: tuple[int, ...]
    termination: Termination | None
    #: Owners of routes that are not seats (a neutral player): they score
    #: nothing and cannot win; shown with their routes and cars left.
    others: tuple[NonSeatOwner, ...] = ()

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's total."""
        return tuple(sheet.total for sheet in self.sheets)


#: ``ScoreLine.shown`` values: every seat, the sheet's own seat only, nobody before the end.
ALL, OWNER, END = "all", "owner", "end"


SHOWN = (ALL, OWNER, END)


#: Kind of the line that stands, during play, for the lines a sheet withholds.
WITHHELD = "withheld"
