"""The Globetrotter (Ticket to Ride: Nordic Countries; the USA 1910 card).

At the end, the seat or seats with the most completed tickets score the
bonus, :data:`POINTS` unless the map prints another value in its own table::

    [variants.globetrotter]
    points = 10

Engine decision NC2: every tied seat scores it (as Europe's European
Express). A seat with no completed ticket never scores it. Tickets count by
the core's one ticket check (``ttr_core.ticket_outcomes``), so a ticket
joined by any route that counts for it — a station's, a region reached at any
of its locations — counts here too. The score line is shown at the end only
(``shown="end"``): completed tickets are secret until then. A map may title
the line its own way (``[rules.titles] globetrotter = "..."``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ttr_core import (
    Board,
    GameRules,
    GameState,
    NativeRule,
    ScoreLine,
    hookimpl,
    ticket_outcomes,
)

#: The variant name this plugin is registered under.
NAME = "globetrotter"
#: The bonus when the map's table gives none.
POINTS = 10
#: The most points a map may give the bonus.
MOST = 1000


def bonus(board: Board) -> int:
    """The bonus of ``board``'s Globetrotter: its ``[variants.globetrotter]
    points``, or :data:`POINTS`."""
    value = board.variant_data.get(NAME, {}).get("points", POINTS)
    return value if type(value) is int else POINTS


def completed(state: GameState) -> list[int]:
    """Each seat's completed tickets, by the core's ticket check."""
    return [
        sum(outcome.completed for outcome in ticket_outcomes(state, seat))
        for seat in range(state.num_players)
    ]


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    table = board.variant_data.get(NAME)
    if table is None:
        return
    for key in table:
        if key != "points":
            yield f"[variants.{NAME}]: unknown key {key!r} (expected: points)"
    value = table.get("points", POINTS)
    if type(value) is not int or not 0 <= value <= MOST:
        yield f"[variants.{NAME}]: points must be a whole number from 0 to {MOST}, not {value!r}"


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    counts = completed(state)
    best = max(counts, default=0)
    points = bonus(state.board)
    title = state.rules.title(NAME, "Globetrotter")
    sheets = []
    for count in counts:
        won = best > 0 and count == best
        tickets = "1 ticket" if count == 1 else f"{count} tickets"
        label = f"{title}: {tickets} completed" + (" (most)" if won else "")
        sheets.append([ScoreLine(NAME, label, points if won else 0, shown="end")])
    return sheets


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: the bonus for the most tickets."""
    return [NativeRule("most_tickets", bonus(rules.board))]
