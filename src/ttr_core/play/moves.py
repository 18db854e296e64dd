"""The moves a person may make, in words grouped by kind, and what they type
to choose one: a number, or a short command (``b``, ``f3``, ``t``,
``c Soho Harlem red``, ``k a c``, ``p``).

A :class:`Menu` is built from the seat's view and the legal actions; the
core's moves are worded here from the view alone, before they happen (so
that a blind draw never names the card it would draw); a variant's own move
is worded by the caller, through :func:`ttr_core.describe`.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Sequence

import attrs

from ttr_core import (
    Action,
    ArgumentError,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    PendingKind,
    PlayerView,
)
from ttr_core.play import text


class Command(enum.Enum):
    """What a person may type besides a move."""

    HELP = "?"
    SCORES = "s"
    ROUTES = "r"
    BOARD = "l"
    QUIT = "q"


#: Every spelling of each command.
_COMMANDS = {
    "?": Command.HELP,
    "h": Command.HELP,
    "help": Command.HELP,
    "s": Command.SCORES,
    "scores": Command.SCORES,
    "r": Command.ROUTES,
    "routes": Command.ROUTES,
    "l": Command.BOARD,
    "look": Command.BOARD,
    "": Command.BOARD,
    "q": Command.QUIT,
    "quit": Command.QUIT,
    "resign": Command.QUIT,
}

HELP = """\
Choose a move by its number, or type:
  b              draw a card from the deck
  f3             take the face-up card in slot 3
  c FROM TO      claim the route between two places (add a colour to choose
                 the route or the cards paid: 'c Soho Harlem red'); the cards
                 paid are those using the fewest wild cards
  t              draw destination tickets
  k a c          keep the tickets on offer lettered a and c
  p              pass (only when nothing else is possible)
  l or Enter     show the board again
  s              the score sheets as you may see them now
  r              every route, with its owner
  ?              this help
  q              resign: the game ends and you lose it"""


@attrs.frozen
class Entry:
    """One numbered move."""

    number: int
    action: Action
    #: The move in words.
    words: str
    #: The short command choosing it, if it has one of its own.
    short: str = ""


@attrs.frozen
class Menu:
    """The legal moves of one decision, numbered from 1 and grouped by kind."""

    view: PlayerView
    entries: tuple[Entry, ...]
    #: ``(heading, entries)`` in the order shown.
    groups: tuple[tuple[str, tuple[Entry, ...]], ...]

    def text(self) -> str:
        """The moves in words, group by group; claims one line per route."""
        view = self.view
        lines = []
        if view.offered:
            keep = view.min_keep
            lines.append(f"Tickets on offer (keep at least {keep}):")
            lines.extend(text.offered(view))
        for heading, entries in self.groups:
            lines.append(f"{heading}:")
            if heading == _CLAIM:
                lines.extend(_claim_lines(view, entries))
                continue
            for entry in entries:
                short = f"{entry.short:5}" if entry.short else " " * 5
                lines.append(f"  {f'[{entry.number}]':5} {short} {entry.words}")
        return "\n".join(lines)


_DRAW = "Draw a card"
_CLAIM = "Claim a route (c FROM TO [COLOUR])"
_TICKETS = "Tickets"
_PASS = "Pass"


def _claim_lines(view: PlayerView, entries: Sequence[Entry]) -> list[str]:
    lines = []
    by_route: dict[int, list[Entry]] = {}
    for entry in entries:
        assert isinstance(entry.action, ClaimRoute)
        by_route.setdefault(entry.action.route, []).append(entry)
    for route, options in by_route.items():
        paid = "  ".join(f"[{e.number}] {e.words}" for e in options)
        lines.append(f"  {text.route(view.board, route)}: {paid}")
    return lines


def payment(view: PlayerView, action: ClaimRoute) -> str:
    """The cards a claim pays: ``"2 red + 1 taxi"``."""
    board = view.board
    length = board.routes[action.route].length
    parts = []
    if action.color is not None and length > action.wilds:
        parts.append(f"{length - action.wilds} {text.card(board, action.color)}")
    if action.wilds:
        parts.append(f"{action.wilds} {board.wild_name}")
    return " + ".join(parts) or "nothing"


def _heading(action: Action) -> str:
    """A variant's move class as a heading: ``BuildStation`` → "Build station"."""
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", type(action).__name__).lower()
    return words[:1].upper() + words[1:]


def build(
    view: PlayerView, legal: Sequence[Action], variant_words: Callable[[Action], str]
) -> Menu:
    """The menu of ``legal`` (every action the viewer may take now).
    ``variant_words`` words a variant's own action."""
    board = view.board
    draws: list[tuple[Action, str, str]] = []
    claims: list[ClaimRoute] = []
    tickets: list[tuple[Action, str, str]] = []
    others: dict[str, list[tuple[Action, str, str]]] = {}
    passes: list[tuple[Action, str, str]] = []
    names = dict(zip(view.offered, text.letters(len(view.offered)), strict=True))
    for action in legal:
        if isinstance(action, DrawBlind):
            draws.insert(0, (action, f"a card from the deck ({view.deck_size} left)", "b"))
        elif isinstance(action, DrawFaceUp):
            name = view.display[action.slot]
            shown = "?" if name is None else text.card(board, name)
            draws.append((action, f"the face-up {shown} card", f"f{action.slot + 1}"))
        elif isinstance(action, ClaimRoute):
            claims.append(action)
        elif isinstance(action, DrawTickets):
            tickets.append((action, f"draw tickets ({view.ticket_deck_size} in the deck)", "t"))
        elif isinstance(action, KeepTickets):
            kept = " ".join(sorted(names.get(t, "?") for t in action.tickets))
            tickets.append((action, f"keep {kept}", ""))
        elif isinstance(action, Pass):
            passes.append((action, "pass (nothing else is possible)", "p"))
        else:
            others.setdefault(_heading(action), []).append((action, variant_words(action), ""))
    if tickets and isinstance(tickets[0][0], KeepTickets):
        tickets.sort(key=lambda item: item[1])
    claims.sort(key=lambda c: (c.route, c.wilds, c.color or ""))
    raw: list[tuple[str, list[tuple[Action, str, str]]]] = [
        (_DRAW, draws),
        (_CLAIM, [(c, payment(view, c), "") for c in claims]),
        (_TICKETS, tickets),
        *others.items(),
        (_PASS, passes),
    ]
    entries: list[Entry] = []
    groups = []
    for heading, items in raw:
        group = []
        for action, words, short in items:
            entry = Entry(len(entries) + 1, action, words, short)
            entries.append(entry)
            group.append(entry)
        if group:
            groups.append((heading, tuple(group)))
    return Menu(view, tuple(entries), tuple(groups))


def prompt(view: PlayerView, menu: Menu) -> str:
    """The question asked for the decision."""
    pending = view.pending
    if pending == PendingKind.START_TICKETS:
        ask = "Choose your starting tickets"
    elif pending == PendingKind.KEEP_TICKETS:
        ask = "Choose the tickets to keep"
    elif pending == PendingKind.SECOND_CARD:
        ask = "Draw your second card"
    elif pending == PendingKind.TURN:
        ask = "Your move"
    else:
        ask = f"Decide ({pending})"
    return f"{ask} [1-{len(menu.entries)}, ? for help]> "


def choose(menu: Menu, typed: str) -> Action | Command | str:
    """What ``typed`` chooses: an action of the menu, a command, or a message
    saying why it chooses nothing."""
    line = typed.strip()
    lowered = line.lower()
    if lowered in _COMMANDS:
        return _COMMANDS[lowered]
    if lowered.isdigit():
        number = int(lowered)
        if 1 <= number <= len(menu.entries):
            return menu.entries[number - 1].action
        return f"There is no move {number}: choose 1 to {len(menu.entries)}."
    for entry in menu.entries:
        if entry.short and entry.short == lowered:
            return entry.action
    word, _, rest = lowered.partition(" ")
    if word in ("c", "claim"):
        return _claim(menu, line.partition(" ")[2])
    if word in ("k", "keep"):
        return _keep(menu, rest)
    if re.fullmatch(r"f\d+", lowered) or lowered in ("b", "t", "p"):
        return f"{line!r} is not a move you may make now; the moves are listed above."
    return f"I do not understand {line!r}: type a move's number, or ? for help."


def _keep(menu: Menu, rest: str) -> Action | str:
    view = menu.view
    if not view.offered:
        return "No tickets are on offer to you now."
    lettered = dict(zip(text.letters(len(view.offered)), view.offered, strict=True))
    chosen = rest.replace(",", " ").split()
    if len(chosen) == 1 and len(chosen[0]) > 1:
        chosen = list(chosen[0])  # "k ac"
    unknown = [c for c in chosen if c not in lettered]
    if unknown or not chosen:
        return f"Name the tickets to keep by their letters ({', '.join(lettered)}): 'k a c'."
    wanted = frozenset(lettered[c] for c in chosen)
    for entry in menu.entries:
        if isinstance(entry.action, KeepTickets) and entry.action.tickets == wanted:
            return entry.action
    return f"Keep at least {view.min_keep} of the tickets on offer."


def _claim(menu: Menu, rest: str) -> Action | str:
    view = menu.view
    board = view.board
    claims = [e.action for e in menu.entries if isinstance(e.action, ClaimRoute)]
    if not claims:
        return "You cannot claim a route now."
    words = rest.replace("–", " ").split()
    colour = None
    colours = {*board.colors, "gray", "grey", "wild", board.wild_name.lower()}
    if words and words[-1].lower() in colours:
        colour = words.pop().lower()
        colour = {"grey": "gray", board.wild_name.lower(): "wild"}.get(colour, colour)
    ends = _two_places(view, words)
    if ends is None:
        return f"Name two places: 'c FROM TO [COLOUR]' (not {rest.strip()!r})."
    here = {ends, ends[::-1]}
    found = [c for c in claims if (board.routes[c.route].a, board.routes[c.route].b) in here]
    if not found:
        return f"You cannot claim a route between {ends[0]} and {ends[1]} now."
    if colour is not None:
        by_route = [c for c in found if board.routes[c.route].color == colour]
        by_card = [c for c in found if (c.color or "wild") == colour]
        found = by_route or by_card
        if not found:
            return f"No claim between {ends[0]} and {ends[1]} goes with {colour}."
    return min(found, key=lambda c: (c.wilds, c.route))


def _two_places(view: PlayerView, words: list[str]) -> tuple[str, str] | None:
    """The two places the words name, split where both halves are places."""
    board = view.board
    for cut in range(1, len(words)):
        try:
            a = board.location(" ".join(words[:cut])).name
            b = board.location(" ".join(words[cut:])).name
        except ArgumentError:
            continue
        return a, b
    return None
