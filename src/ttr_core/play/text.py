"""The board in text, as one seat sees it: the screen ``ttr play`` shows.

Every function here reads a :class:`~ttr_core.PlayerView` (or a finished
game's :class:`~ttr_core.FinalScores`), never a game state, so nothing a
seat may not see can reach the screen. Players are numbered from 1, as
people count ("Player 1" is seat 0).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping

from ttr_core import WILD, Board, FinalScores, PlayerView, ScoreSheet, view_rules, view_words
from ttr_core.hooks import calls
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


def start_words(board: Board, players: int) -> str | None:
    """Why the scores do not all start at 0, when a map staggers them by seat
    (Nederland: the score track starts later seats ahead); ``None`` otherwise."""
    starts = board.rules.start_scores[:players]
    if not any(starts):
        return None
    told = ", ".join(
        f"{player(seat)} {points(start)}" for seat, start in enumerate(starts) if start
    )
    return (
        f"The scores start staggered by seat, as {board.name} prints its score track, "
        f"to offset moving later: {told}."
    )


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


def route(board: Board, route_id: int, marks: Mapping[int, str] | None = None) -> str:
    """``"Haarlem–Amsterdam (green 1, 1 point)"``; with ``marks`` (:func:`route_marks`),
    what the route is besides: ``"(gray 2, 2 points; ferry 1)"``."""
    r = board.routes[route_id]
    mark = marks.get(route_id, "") if marks else ""
    told = f"{r.color} {r.length}, {points(board.rules.route_points[r.length])}"
    return f"{r.a}–{r.b} ({told}{'; ' + mark if mark else ''})"


def route_marks(view: PlayerView) -> dict[int, str]:
    """What each route of the game is besides its colour and length, from the
    map's fields, as the terminal marks it: ``"tunnel"``, ``"ferry 1"``
    (a variant's route style names its field: the picture's legend word),
    ``"toll 3"``, ``"merchandise"``, ``"attraction Central Park"`` (a place's
    field). Data, not code: a new map's fields are marked too."""
    board = view.board
    named: dict[str, str] = {}
    for style in calls.run_route_styles(view_rules(view)):
        if style.field and style.legend:
            named[style.field] = style.legend.partition(":")[0]
    marks: dict[int, str] = {}
    for r in board.routes:
        found = []
        for name, value in r.extra.items():
            word = named.get(name, name)
            if value is True:
                found.append(word)
            elif type(value) is int and value > 0:
                found.append(f"{word} {value}")
            elif isinstance(value, tuple) and value and all(isinstance(v, str) for v in value):
                found.append(f"{word} {', '.join(value)}")
        ends: dict[str, list[str]] = {}
        for end in (r.a, r.b):
            for name, value in board.location(end).extra.items():
                if value is True:
                    ends.setdefault(name, []).append(end)
        found.extend(f"{name} {' & '.join(names)}" for name, names in ends.items())
        if found:
            marks[r.id] = ", ".join(found)
    return marks


def ticket(board: Board, ticket_id: int) -> str:
    """``"Amsterdam–Maastricht (20)"``."""
    return board.tickets[ticket_id].text("–")


_SEAT = re.compile(r"^Seat (\d+) ")
_ANY_SEAT = re.compile(r"\bSeat (\d+)\b")


def event(line: str, viewer: int, humans: Collection[int] = ()) -> str:
    """A line of :func:`ttr_core.describe` in players' words: "Seat 1 drew ..."
    becomes "Player 2 drew ...", the viewer's own moves "You drew ...", and a
    seat named later in the line ("paid a toll of 3 to Seat 1") the same way."""
    found = _SEAT.match(line)
    rest = line
    if found is not None:
        seat = int(found.group(1))
        who = "You" if seat == viewer else player(seat, humans)
        rest = f"{who} {line[found.end() :]}"

    def named(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        return "you" if seat == viewer else player(seat, humans)

    # describe() writes "a" before every card name: "an orange card".
    rest = re.sub(r"\ba (?=[aeiouAEIOU]\w* card)", "an ", rest)
    return _ANY_SEAT.sub(named, rest)


def predicate(line: str) -> str:
    """A :func:`ttr_core.describe` line without its seat: what was done."""
    found = _SEAT.match(line)
    return line if found is None else line[found.end() :]


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
    lines.extend(f"  {line}" for line in view_words(view))
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
    marks = route_marks(view)
    lines.extend(_tickets(view, both_pairs, sheet, marks))
    mine = view.seats[me].routes
    lines.append(
        "Your routes: " + ("; ".join(route(board, r, marks) for r in mine) if mine else "none yet")
    )
    return "\n".join(lines)


def wanted_routes(view: PlayerView) -> set[int]:
    """The open routes on the cheapest ways of the viewer's tickets not done yet."""
    both_pairs = view_rules(view).both_pair_routes_usable
    wanted: set[int] = set()
    for t in view.tickets:
        progress = ticket_progress(view, t, both_pairs)
        if progress.spaces:
            wanted.update(progress.routes)
    return wanted


def _tickets(
    view: PlayerView, both_pairs: bool, sheet: ScoreSheet | None, marks: Mapping[int, str]
) -> list[str]:
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
        lines.extend(f"  {route(board, r, marks)}" for r in sorted(wanted))
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
    marks = route_marks(view)
    for r in board.routes:
        owner = owned.get(r.id)
        if owner is None:
            state = "open" if is_open(view, r.id, owned, both_pairs) else "closed (double route)"
        elif owner < len(view.seats):
            state = player(owner, humans)
        else:
            state = names.get(owner, f"owner {owner}")
        lines.append(f"  {route(board, r.id, marks)}: {state}")
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
