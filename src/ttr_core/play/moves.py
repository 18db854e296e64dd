"""The moves a person may make, in words grouped by kind, and what they type
to choose one: a number, or a short command (``b``, ``f3``, ``t``,
``c Soho Midtown red``, ``k a c``, ``p``, and a variant's own: ``st Berlin``).

A :class:`Menu` is built from the seat's view and the legal actions, every
move worded by :func:`ttr_core.move_words` from the view alone, before it
happens (so that a blind draw never names the card it would draw), a
variant's own move in the variant's words (hook ``ttr_move_words``) with
every variant's notes (a ferry's locomotives, a toll and who is paid).
A variant's group of many moves about places (a station in any city) is
shown as one line of places, chosen by its command and a place.
"""

from __future__ import annotations

import difflib
import enum
import re
from collections.abc import Sequence

import attrs

from ttr_core import (
    Action,
    ArgumentError,
    Board,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    MoveWords,
    Pass,
    PendingKind,
    PlayerView,
    Route,
    move_words,
)
from ttr_core.play import text
from ttr_core.play.progress import owners


class Command(enum.Enum):
    """What a person may type besides a move."""

    HELP = "?"
    SCORES = "s"
    ROUTES = "r"
    BOARD = "l"
    MOVES = "m"
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
    "m": Command.MOVES,
    "moves": Command.MOVES,
    "q": Command.QUIT,
    "quit": Command.QUIT,
    "resign": Command.QUIT,
}


def help_text(board: Board, menu: Menu | None = None) -> str:
    """What may be typed, with an example of a route of ``board``, and the
    commands of the variants' moves ``menu`` offers now."""
    example = board.routes[0] if board.routes else None
    claim = f"'c {example.a} {example.b} {example.color}'" if example else "'c FROM TO red'"
    return f"""\
Choose a move by its number, or type:
  b              draw a card from the deck
  f3             take the face-up card in slot 3
  c FROM TO      claim the route between two places (add a colour to choose
                 the route or the cards paid: {claim}); the cards
                 paid are those using the fewest wild cards
  t              draw destination tickets
  k a c          keep the tickets on offer lettered a and c
  p              pass (only when nothing else is possible)
{_variant_help(board, menu)}
  m              every move, each with its number
  l or Enter     show the board again
  s              the score sheets as you may see them now
  r              every route, with its owner
  ?              this help
  q              resign: the game ends and you lose it"""


def _variant_help(board: Board, menu: Menu | None) -> str:
    """A line per command of a variant's moves offered now, with an example."""
    lines = []
    seen: set[str] = set()
    for entry in menu.entries if menu is not None else ():
        told = entry.told
        command = told.command
        if not command or command in seen or isinstance(entry.action, _CORE):
            continue
        seen.add(command)
        if told.place is not None:
            typed = f"{command} {board.locations[told.place].name}"
        elif told.route is not None and entry.short != command:
            route = board.routes[told.route]
            typed = f"{command} {route.a} {route.b}"
        else:
            typed = command
        lines.append(f"  {typed:14} {told.group.lower()} (add words of the choice to pick one)")
    if not lines:
        return "  (a variant's moves, when offered, show the word that chooses them)"
    return "\n".join(lines)


#: The core's actions, which the commands above choose.
_CORE = (DrawBlind, DrawFaceUp, ClaimRoute, DrawTickets, KeepTickets, Pass)


@attrs.frozen
class Entry:
    """One move of the menu."""

    #: Its number (0: chosen by its command only, in a group shown as places).
    number: int
    action: Action
    #: The move in words (its notes included).
    words: str
    #: The short command choosing it, if it has one of its own.
    short: str = ""
    #: The move's words from :func:`ttr_core.move_words`.
    told: MoveWords = attrs.field(factory=lambda: MoveWords(""))


@attrs.frozen
class Menu:
    """The legal moves of one decision, numbered from 1 and grouped by kind."""

    view: PlayerView
    entries: tuple[Entry, ...]
    #: ``(heading, entries)`` in the order shown.
    groups: tuple[tuple[str, tuple[Entry, ...]], ...]

    def text(self, *, every: bool = False) -> str:
        """The moves in words, group by group; claims one line per route and,
        unless ``every``, only those on the viewer's tickets' ways when there
        are many; a variant's many moves about places one line of places."""
        view = self.view
        lines = []
        if view.offered:
            keep = view.min_keep
            lines.append(f"Tickets on offer (keep at least {keep}):")
            lines.extend(text.offered(view))
        for heading, entries in self.groups:
            if heading == _CLAIM:
                lines.extend(_route_lines(view, _CLAIM, entries, every))
                continue
            if entries[0].number == 0:
                lines.extend(_place_lines(view, heading, entries))
                continue
            # A command several moves share is typed with words of their choice.
            shared = sorted({e.told.command for e in entries if e.told.command and not e.short})
            routes = {e.told.route for e in entries}
            if len(routes) > 1 and None not in routes:
                # A variant's moves about several routes (claims with sets): a
                # line per route, as the claims; chosen by 'COMMAND FROM TO'.
                typed = f" ({', '.join(f'{c} FROM TO [WORDS]' for c in shared)})"
                lines.extend(_route_lines(view, heading + typed, entries, every))
                continue
            typed = f" ({', '.join(f'{c} WORDS' for c in shared)})" if shared else ""
            lines.append(f"{heading}{typed}:")
            for entry in entries:
                short = f"{entry.short:5}" if entry.short else " " * 5
                lines.append(f"  {f'[{entry.number}]':5} {short} {entry.words}")
        return "\n".join(lines)


_DRAW = "Draw a card"
_CLAIM = "Claim a route (c FROM TO [COLOUR])"
_TICKETS = "Tickets"
_PASS = "Pass"
#: Routes listed one by one at most, unless every move is asked for (``m``).
_CLAIMS_SHOWN = 12
#: Moves of a variant's group about places listed one by one at most.
_PLACE_MOVES_SHOWN = 12


def _route_lines(
    view: PlayerView, heading: str, entries: Sequence[Entry], every: bool
) -> list[str]:
    """Moves about routes (claims), a line per route with its ways to pay and
    its notes; unless ``every``, at most :data:`_CLAIMS_SHOWN` routes, those
    on the viewer's tickets' ways first."""
    by_route: dict[int, list[Entry]] = {}
    for entry in entries:
        route = entry.told.route
        assert route is not None
        by_route.setdefault(route, []).append(entry)
    shown = list(by_route)
    if not every and len(shown) > _CLAIMS_SHOWN:
        # Many routes: those on the viewer's tickets' cheapest ways first.
        wanted = text.wanted_routes(view)
        shown = sorted(shown, key=lambda r: r not in wanted)[:_CLAIMS_SHOWN]
        shown.sort()
    lines = [f"{heading}:"]
    for route in shown:
        options = by_route[route]
        paid = "  ".join(f"[{e.number}] {e.told.choice}" for e in options)
        notes = "; ".join(options[0].told.notes)
        lines.append(
            f"  {text.route(view.board, route)}: {paid}" + (f"  — {notes}" if notes else "")
        )
    hidden = len(by_route) - len(shown)
    if hidden:
        lines.append(f"  ... and {hidden} more routes: 'm' lists every move")
    return lines


def _place_lines(view: PlayerView, heading: str, entries: Sequence[Entry]) -> list[str]:
    """A variant's many moves about places: the places, the cheapest choice,
    and the command that chooses one."""
    board = view.board
    places = sorted(
        {board.locations[e.told.place].name for e in entries if e.told.place is not None}
    )
    command = entries[0].told.command
    example = entries[0]
    where = board.locations[example.told.place].name if example.told.place is not None else ""
    return [
        f"{heading}: type '{command} PLACE', and a colour to choose the cards "
        f"('{command} {where}': {example.told.text}); the places:",
        "  " + ", ".join(places),
    ]


def build(view: PlayerView, legal: Sequence[Action]) -> Menu:
    """The menu of ``legal`` (every action the viewer may take now), each move
    worded by :func:`ttr_core.move_words`."""
    draws: dict[int, tuple[Action, str, str, MoveWords]] = {}
    claims: list[tuple[ClaimRoute, MoveWords]] = []
    tickets: list[tuple[Action, str, str, MoveWords]] = []
    others: dict[str, list[tuple[Action, str, str, MoveWords]]] = {}
    passes: list[tuple[Action, str, str, MoveWords]] = []
    names = dict(zip(view.offered, text.letters(len(view.offered)), strict=True))
    for action in legal:
        told = move_words(view, action)
        if isinstance(action, DrawBlind):
            draws[0] = (action, f"a card from the deck ({view.deck_size} left)", "b", told)
        elif isinstance(action, DrawFaceUp):
            name = view.display[action.slot]
            shown = "?" if name is None else text.card(view.board, name)
            draws[action.slot + 1] = (
                action,
                f"the face-up {shown} card",
                f"f{action.slot + 1}",
                told,
            )
        elif isinstance(action, ClaimRoute):
            claims.append((action, told))
        elif isinstance(action, DrawTickets):
            tickets.append((action, told.text, "t", told))
        elif isinstance(action, KeepTickets):
            kept = " ".join(sorted(names.get(t, "?") for t in action.tickets))
            tickets.append((action, f"keep {kept}", "", told))
        elif isinstance(action, Pass):
            passes.append((action, told.text, "p", told))
        else:
            words = told.text + (f" ({'; '.join(told.notes)})" if told.notes else "")
            others.setdefault(told.group, []).append((action, words, "", told))
    if tickets and isinstance(tickets[0][0], KeepTickets):
        tickets.sort(key=lambda item: item[1])
    claims.sort(key=lambda c: (c[0].route, c[0].wilds, c[0].color or ""))
    entries: list[Entry] = []
    groups = []
    # The draws keep their numbers between a turn's first and second card: the
    # deck is 1, face-up slot k is k + 1, whichever of them may be taken.
    slots = len(view.display) + 1
    group = []
    for key, (action, words, short, told) in sorted(draws.items()):
        group.append(Entry(key + 1, action, words, short, told))
    if group:
        groups.append((_DRAW, tuple(group)))
        entries.extend(group)
    raw: list[tuple[str, list[tuple[Action, str, str, MoveWords]]]] = [
        (_CLAIM, [(c, told.choice, "", told) for c, told in claims]),
        (_TICKETS, tickets),
        *others.items(),
        (_PASS, passes),
    ]
    number = slots if group else 0
    # A variant's command chooses a move when only that move has it ("g": give up).
    commands = [told.command for *_, told in (item for _, items in raw for item in items)]
    for heading, items in raw:
        placed = (
            heading not in (_CLAIM, _TICKETS, _PASS)
            and len(items) > _PLACE_MOVES_SHOWN
            and all(told.place is not None and told.command for *_, told in items)
        )
        group = []
        for action, words, short, told in items:
            if not placed:
                number += 1
            if not short and told.command and commands.count(told.command) == 1:
                short = told.command
            entry = Entry(0 if placed else number, action, words, short, told)
            entries.append(entry)
            group.append(entry)
        if group:
            groups.append((heading, tuple(group)))
    return Menu(view, tuple(entries), tuple(groups))


def ask(view: PlayerView, told: Sequence[MoveWords]) -> str:
    """What the seat of ``view`` is asked to decide, in words: "Your move",
    "Draw your second card", a variant's decision by the group of its legal
    moves (``told``: their :func:`ttr_core.move_words`)."""
    pending = view.pending
    if pending == PendingKind.START_TICKETS:
        return "Choose your starting tickets"
    if pending == PendingKind.KEEP_TICKETS:
        return "Choose the tickets to keep"
    if pending == PendingKind.SECOND_CARD:
        return "Draw your second card"
    if pending == PendingKind.TURN:
        return "Your move"
    groups = dict.fromkeys(words.group for words in told)
    return "; or ".join(group for group in groups if group) or "Decide"


def prompt(view: PlayerView, menu: Menu) -> str:
    """The question asked for the decision."""
    ask_now = ask(view, [entry.told for entry in menu.entries])
    numbers = [entry.number for entry in menu.entries if entry.number]
    span = f"{min(numbers)}-{max(numbers)}, " if numbers else ""
    return f"{ask_now} [{span}? for help]> "


def choose(menu: Menu, typed: str) -> Action | Command | str:
    """What ``typed`` chooses: an action of the menu, a command, or a message
    saying why it chooses nothing."""
    line = typed.strip()
    lowered = line.lower()
    if lowered in _COMMANDS:
        return _COMMANDS[lowered]
    numbered = {entry.number: entry for entry in menu.entries if entry.number}
    if lowered.isdigit():
        number = int(lowered)
        if number in numbered:
            return numbered[number].action
        return f"There is no move {number} now: the moves offered are {_spans(sorted(numbered))}."
    for entry in menu.entries:
        if entry.short and entry.short == lowered:
            return entry.action
    word, _, rest = lowered.partition(" ")
    if word in ("c", "claim"):
        return _claim(menu, line.partition(" ")[2])
    if word in ("k", "keep"):
        return _keep(menu, rest)
    commands = {entry.told.command for entry in menu.entries if entry.told.command}
    if word in commands - {"b", "t", "p"} and not re.fullmatch(r"f\d+", word):
        return _variant(menu, word, line.partition(" ")[2])
    if re.fullmatch(r"f\d+", lowered):
        slot = int(lowered[1:])
        if not 1 <= slot <= len(menu.view.display):
            return (
                f"There is no face-up slot {slot}: the slots are f1 to f{len(menu.view.display)}."
            )
        return f"You cannot take the face-up card in slot {slot} now (a {_why_not_faceup(menu)})."
    if lowered in ("b", "t", "p"):
        return f"{line!r} is not a move you may make now; the moves are listed above."
    return f"I do not understand {line!r}: type a move's number, or ? for help."


def _spans(numbers: Sequence[int]) -> str:
    """``"1–3, 5–9"``: numbers in runs."""
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs) or "none"


def _why_not_faceup(menu: Menu) -> str:
    if menu.view.pending == PendingKind.SECOND_CARD:
        return "face-up wild card cannot be your second card, or the slot is empty"
    return "move of another kind is asked now, or the slot is empty"


def _variant(menu: Menu, word: str, rest: str) -> Action | str:
    """A variant's move by its command, a place and words of its choice:
    ``st Berlin red``."""
    view = menu.view
    board = view.board
    found = [entry for entry in menu.entries if entry.told.command == word]
    words = rest.replace("–", " ").split()
    if any(entry.told.place is not None for entry in found):
        if not words:
            return f"Name the place: '{word} PLACE' (e.g. '{word} {_a_place(view, found)}')."
        place, words = _place_prefix(board, words)
        if place is None:
            return _unknown_place(board, " ".join(words))
        group = found[0].told.group
        found = [entry for entry in found if entry.told.place == place]
        if not found:
            name = board.locations[place].name
            return f"{group}: not at {name} now (it is not among the places listed)."
    routes = {entry.told.route for entry in found}
    if len(routes) > 1 and None not in routes:
        # Moves about several routes (claims with sets): the route is named first.
        on, words = _on_route(view, found, words, word)
        if isinstance(on, str):
            return on
        found = on
    if words:
        wanted = [w.lower() for w in words]
        matching = [e for e in found if all(w in e.told.choice.lower() for w in wanted)]
        if not matching:
            choices = "; ".join(e.told.choice for e in found[:12])
            return f"None of the choices goes with {' '.join(words)!r}: {choices}."
        found = matching
    return found[0].action


def _on_route(
    view: PlayerView, found: list[Entry], words: list[str], word: str
) -> tuple[list[Entry], list[str]] | tuple[str, list[str]]:
    """The moves of ``found`` on the route the first words name (``FROM TO``),
    and the words after them; or a message saying what to type."""
    board = view.board
    first = found[0].told.route
    assert first is not None
    example = f"'{word} {board.routes[first].a} {board.routes[first].b}'"
    for end in range(len(words), 1, -1):
        ends = _two_places(view, words[:end])
        if isinstance(ends, str):
            continue
        here = {ends, ends[::-1]}
        on = [
            e
            for e in found
            if e.told.route is not None
            and (board.routes[e.told.route].a, board.routes[e.told.route].b) in here
        ]
        if not on:
            return f"No such move on {ends[0]}–{ends[1]} now (e.g. {example}).", words
        return on, words[end:]
    return f"Name the route: '{word} FROM TO' (e.g. {example}).", words


def _a_place(view: PlayerView, entries: Sequence[Entry]) -> str:
    place = entries[0].told.place
    return view.board.locations[place].name if place is not None else "PLACE"


def _place_prefix(board: Board, words: list[str]) -> tuple[int | None, list[str]]:
    """The place the first words name (the longest such), and the words after it."""
    for cut in range(len(words), 0, -1):
        try:
            return board.location(" ".join(words[:cut])).id, words[cut:]
        except ArgumentError:
            continue
    return None, words


def _unknown_place(board: Board, typed: str) -> str:
    names = [loc.name for loc in board.locations]
    close = difflib.get_close_matches(typed, names, n=3, cutoff=0.6)
    hint = f" (did you mean {' or '.join(close)}?)" if close else ""
    return f"{typed!r} is no place on {board.name}{hint}."


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
    words = rest.replace("–", " ").split()
    colour = None
    colours = {*board.colors, "gray", "grey", "wild", board.wild_name.lower()}
    if words and words[-1].lower() in colours:
        colour = words.pop().lower()
        colour = {"grey": "gray", board.wild_name.lower(): "wild"}.get(colour, colour)
    ends = _two_places(view, words)
    if isinstance(ends, str):
        return ends
    a, b = ends
    here = {ends, ends[::-1]}
    between = [r for r in board.routes if (r.a, r.b) in here]
    if not between:
        return f"There is no route between {a} and {b} on {board.name}."
    if not claims:
        return f"You cannot claim a route now: {ask(view, [e.told for e in menu.entries])}."
    found = [c for c in claims if (board.routes[c.route].a, board.routes[c.route].b) in here]
    if not found:
        return f"You cannot claim {a}–{b} now: {_why_not(view, between)}."
    if colour is not None:
        by_route = [c for c in found if board.routes[c.route].color == colour]
        by_card = [c for c in found if (c.color or "wild") == colour]
        found = by_route or by_card
        if not found:
            return f"No claim between {a} and {b} goes with {colour}."
    return min(found, key=lambda c: (c.wilds, c.route))


def _why_not(view: PlayerView, routes: Sequence[Route]) -> str:
    """Why none of ``routes`` (the routes between two places) may be claimed:
    from the view alone."""
    owned = owners(view)
    names = {o.owner: o.name for o in view.others}
    reasons = []
    for route in routes:
        owner = owned.get(route.id)
        if owner == view.viewer:
            reasons.append(f"the {route.color} route is yours already")
        elif owner is not None:
            who = text.player(owner) if owner < len(view.seats) else names.get(owner, "another")
            reasons.append(f"{who} owns the {route.color} route")
        elif view.seats[view.viewer].cars < route.length:
            reasons.append(
                f"the {route.color} route takes {route.length} {text.pieces(view.board)} "
                f"and you have {view.seats[view.viewer].cars}"
            )
        elif route.partner is not None and owned.get(route.partner) is not None:
            reasons.append(f"the {route.color} route's double is taken and both may not be")
        else:
            reasons.append(f"you lack the cards for the {route.color} {route.length}")
    return "; ".join(reasons)


def _two_places(view: PlayerView, words: list[str]) -> tuple[str, str] | str:
    """The two places the words name, split where both halves are places, or
    a message naming what is no place of the map."""
    board = view.board
    if len(words) < 2:
        return f"Name two places: 'c FROM TO [COLOUR]' (not {' '.join(words)!r})."
    for cut in range(1, len(words)):
        try:
            a = board.location(" ".join(words[:cut])).name
            b = board.location(" ".join(words[cut:])).name
        except ArgumentError:
            continue
        return a, b
    # Say which words are no place: those after a known first place, or
    # before a known last one, or all of them.
    place, after = _place_prefix(board, words)
    if place is not None:
        return _unknown_place(board, " ".join(after)) if after else "Name two places."
    for cut in range(1, len(words)):
        try:
            board.location(" ".join(words[cut:]))
        except ArgumentError:
            continue
        return _unknown_place(board, " ".join(words[:cut]))
    return _unknown_place(board, " ".join(words))
