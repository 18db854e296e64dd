"""The board in text, as one seat sees it: the screen ``ttr play`` shows.

Every function here reads a :class:`~ttr_core.PlayerView` (or a finished
game's :class:`~ttr_core.FinalScores`), never a game state, so nothing a
seat may not see can reach the screen. Players are numbered from 1, as
people count ("Player 1" is seat 0).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from ttr_core import WILD, Board, FinalScores, PlayerView, ScoreSheet
from ttr_core.play.progress import is_open, owners, ticket_progress

#: A line of dashes between screens.
RULE = "-" * 72


def pieces(board: Board) -> str:
    """What the map's players place on routes (trains, taxis, carts: ``[map] pieces``)."""
    return board.pieces


def player(seat: int, humans: Collection[int] = ()) -> str:
    """``"Player 2"`` for seat 1; ``"Player 1 (you)"`` for a seat the person plays
    when only one is."""
    name = f"Player {seat + 1}"
    return f"{name} (you)" if len(humans) == 1 and seat in humans else name


def card(board: Board, name: str) -> str:
    """A card as the map names it (its wild card by the map's word: "taxi")."""
    return board.wild_name if name == WILD else name


def cards(board: Board, counts: Mapping[str, int]) -> str:
    """``"blue 2, taxi 1"``: the cards held, in the map's order; ``"none"``."""
    shown = [f"{card(board, name)} {n}" for name, n in counts.items() if n]
    return ", ".join(shown) or "none"


def count(number: int, noun: str, width: int = 0) -> str:
    """``"1 ticket"``, ``" 2 tickets"``: the number right-aligned in ``width``."""
    return f"{number:{width}} {noun}{'' if number == 1 else 's'}"


def points(number: int) -> str:
    return f"{number} point" if number == 1 else f"{number} points"


def route(board: Board, route_id: int) -> str:
    """``"Haarlem–Amsterdam (green 1, 1 point)"``."""
    r = board.routes[route_id]
    return f"{r.a}–{r.b} ({r.color} {r.length}, {points(board.rules.route_points[r.length])})"


def ticket(board: Board, ticket_id: int) -> str:
    """``"Amsterdam–Maastricht (20)"``."""
    return board.tickets[ticket_id].text("–")


_SEAT = re.compile(r"^Seat (\d+) ")


def event(line: str, viewer: int, humans: Collection[int] = ()) -> str:
    """A line of :func:`ttr_core.describe` in players' words: "Seat 1 drew ..."
    becomes "Player 2 drew ...", and the viewer's own moves "You drew ..."."""
    found = _SEAT.match(line)
    if found is None:
        return line
    seat = int(found.group(1))
    who = "You" if seat == viewer else player(seat, humans)
    # describe() writes "a" before every card name: "an orange card".
    rest = re.sub(r"\ba (?=[aeiouAEIOU]\w* card)", "an ", line[found.end() :])
    return f"{who} {rest}"


def predicate(line: str) -> str:
    """A :func:`ttr_core.describe` line without its seat: what was done."""
    found = _SEAT.match(line)
    return line if found is None else line[found.end() :]


def _variant_lines(view: PlayerView) -> list[str]:
    """What the variants show the viewer (``view.variants``), one line per
    variant: ``"  tolls: holdings 30; loans 0, 0"``. Empty values are left out."""
    shown: dict[str, list[str]] = {}
    for key, value in view.variants.items():
        variant, _, name = key.partition(".")
        if value is None or value == () or value == "":
            continue
        if isinstance(value, tuple) and all(isinstance(v, int | str | float) for v in value):
            words = ", ".join(str(v) for v in value)
        else:
            words = str(value)
            words = words if len(words) <= 100 else words[:99] + "…"
        shown.setdefault(variant, []).append(f"{name or variant} {words}")
    return [f"  {variant}: {'; '.join(parts)}" for variant, parts in shown.items()]


def screen(
    view: PlayerView,
    *,
    humans: Collection[int],
    both_pairs: bool,
    sheet: ScoreSheet | None = None,
    events: tuple[str, ...] = (),
) -> str:
    """The board as ``view.viewer`` sees it, before a decision: what happened
    since its last screen, every seat's public facts, its own hand and
    tickets with their progress, the face-up cards, and the open routes on
    its tickets' cheapest ways. ``sheet`` is the viewer's score sheet as it
    may see it (``player_score_sheets``), for the tickets already done;
    ``both_pairs`` whether both routes of a double pair may be claimed."""
    board = view.board
    me = view.viewer
    word = pieces(board)
    lines = [RULE]
    if events:
        lines.append("Since your last move:")
        lines.extend(f"  {e}" for e in events)
        lines.append("")
    final = f"; final round, {view.final_turns} turns left" if view.final_turns >= 0 else ""
    lines.append(f"{board.name}: turn {view.turn + 1}{final}")
    for seat in view.seats:
        known = cards(board, seat.known)
        lines.append(
            f"  {player(seat.seat, humans) + ':':16} {seat.cars:3} {word}, "
            f"{count(seat.hand_size, 'card', 3)}, {count(seat.tickets_held, 'ticket', 2)}, "
            f"{count(len(seat.routes), 'route', 2)}, score {seat.score}"
            + (f"; known cards: {known}" if seat.known else "")
        )
    for other in view.others:
        left = "" if other.cars is None else f", {other.cars} {word}"
        lines.append(f"  {other.name.capitalize() + ':':16} {len(other.routes)} routes{left}")
    lines.extend(_variant_lines(view))
    shown = [
        f"f{slot + 1} {'(empty)' if name is None else card(board, name)}"
        for slot, name in enumerate(view.display)
    ]
    lines.append(f"Face-up cards: {', '.join(shown)}")
    lines.append(
        f"Deck: {view.deck_size} cards, discard pile {view.discard_size}; "
        f"ticket deck: {view.ticket_deck_size}"
    )
    lines.append(f"Your hand: {cards(board, view.hand)}")
    lines.extend(_tickets(view, both_pairs, sheet))
    mine = view.seats[me].routes
    lines.append(
        "Your routes: " + ("; ".join(route(board, r) for r in mine) if mine else "none yet")
    )
    return "\n".join(lines)


def _tickets(view: PlayerView, both_pairs: bool, sheet: ScoreSheet | None) -> list[str]:
    board = view.board
    done = set()
    if sheet is not None:
        done = {line.ref for line in sheet.lines if line.kind == "ticket" and line.points > 0}
    if not view.tickets:
        return ["Your tickets: none yet"]
    lines = ["Your tickets:"]
    wanted: set[int] = set()
    for t in view.tickets:
        progress = ticket_progress(view, t, both_pairs)
        if t in done or progress.spaces == 0:
            state = "done"
        elif progress.spaces is None:
            state = "cut off: no open way left"
        else:
            routes = count(len(progress.routes), "route")
            state = f"{count(progress.spaces, 'space')} to go ({routes})"
            wanted.update(progress.routes)
        lines.append(f"  {ticket(board, t)}: {state}")
    if wanted:
        lines.append("Open routes on your tickets' cheapest ways:")
        lines.extend(f"  {route(board, r)}" for r in sorted(wanted))
    return lines


def offered(view: PlayerView) -> list[str]:
    """The tickets on offer to the viewer, lettered ``a``, ``b``, ... as
    ``k a c`` names them, with the spaces each needs."""
    lines = []
    for letter, t in zip(_LETTERS, view.offered, strict=False):
        progress = ticket_progress(view, t, both_pairs=True)
        far = (
            "no open way" if progress.spaces is None else f"{count(progress.spaces, 'space')} to go"
        )
        lines.append(f"  {letter}  {ticket(view.board, t)}: {far}")
    return lines


#: Letters for the tickets on offer.
_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def letters(count: int) -> str:
    """The letters naming ``count`` tickets on offer."""
    return _LETTERS[:count]


def all_routes(view: PlayerView, *, humans: Collection[int], both_pairs: bool) -> str:
    """Every route of the map with who owns it, or whether it is still open."""
    board = view.board
    owned = owners(view)
    names = {o.owner: o.name for o in view.others}
    lines = ["Routes:"]
    for r in board.routes:
        owner = owned.get(r.id)
        if owner is None:
            state = "open" if is_open(view, r.id, owned, both_pairs) else "closed (double route)"
        elif owner < len(view.seats):
            state = player(owner, humans)
        else:
            state = names.get(owner, f"owner {owner}")
        lines.append(f"  {route(board, r.id)}: {state}")
    return "\n".join(lines)


def sheets(sheets: tuple[ScoreSheet, ...], *, humans: Collection[int], title: str) -> str:
    """Score sheets, one block per seat: total, then every line."""
    lines = [title]
    for sheet in sheets:
        lines.append(f"{player(sheet.player, humans)}: {points(sheet.total)}")
        for line in sheet.lines:
            lines.append(f"  {line.points:+4d}  {line.label}")
            if line.detail:  # what the line counts (the Grand Tour's tickets, attractions)
                lines.append(f"{'':8}{'; '.join(line.detail)}")
    return "\n".join(lines)


#: How a game ended, in words (``Termination`` values); ``{pieces}`` is the
#: map's word for its pieces.
_ENDINGS = {
    "cars": "a player ran low on {pieces} and the final round was played",
    "stalemate": "a full round of passes: nobody could move",
    "resignation": "{forfeit} resigned",
    "timeout": "{forfeit} ran out of time",
    "abandoned": "the game was abandoned",
}


def final(
    scores: FinalScores, board: Board, *, humans: Collection[int], forfeit: int | None
) -> str:
    """The final score sheet of a finished game: how it ended, every seat's
    lines, the owners that are not seats, and the winners."""
    how = _ENDINGS.get(str(scores.termination), str(scores.termination)).format(
        pieces=pieces(board), forfeit="" if forfeit is None else player(forfeit, humans)
    )
    lines = [RULE, f"Game over: {how}.", ""]
    lines.append(sheets(scores.sheets, humans=humans, title="Final score sheet:"))
    for other in scores.others:
        lines.append(f"{other.name.capitalize()} (not a player; scores nothing):")
        lines.extend(f"  {route(board, r)}" for r in other.routes)
    winners = [player(w, humans) for w in scores.winners]
    if not winners:
        lines.append("No winner.")
    else:
        lines.append(f"Winner{'s' if len(winners) > 1 else ''}: {', '.join(winners)}")
    return "\n".join(lines)
