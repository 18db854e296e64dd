"""Generated destination tickets, for maps whose printed deck is not (fully) known.

Every known printed ticket of New York and Amsterdam obeys one rule: its
value is the fewest route spaces between its two places
(``tests/test_ticketgen.py`` checks it against the print). The generator
follows it: for a board, a count and a seed it deals pairs of places that no
other ticket joins, spread over the board (the least-used places first),
each worth its shortest distance in spaces. The same board, count and seed
always give the same tickets.
"""

from __future__ import annotations

import heapq
import json
import random
from collections.abc import Iterable, Mapping
from typing import Any

from ttr_core.errors import ArgumentError, MapError, MapProblem, items_argument, show, what
from ttr_core.model.board import Board, Ticket

#: The shortest ticket the generator deals (a ticket of one space is a single route).
MIN_POINTS = 2


#: Most tickets read from an argument: far above any map's (an endless iterable stops here).
_MAX_ITEMS = 100_000

#: The largest seed (in bits, either sign) :func:`generate_tickets` takes.
MAX_SEED_BITS = 256


def _check_board(board: object) -> Board:
    if not isinstance(board, Board):
        raise ArgumentError(
            f"board must be a ttr_core.Board, not {type(board).__name__} {show(board)}"
        )
    return board


def _tickets_of(board: Board, name: str, tickets: object) -> tuple[Ticket, ...]:
    r"""``tickets`` as a list of :class:`Ticket`\ s joining places of ``board``, else
    :class:`ArgumentError` naming the argument ``name``."""
    if isinstance(tickets, Mapping):
        raise ArgumentError(f"{name} must be an iterable of ttr_core.Ticket, not {what(tickets)}")
    items = items_argument(name, tickets, _MAX_ITEMS, "an iterable of ttr_core.Ticket")
    places = {loc.name for loc in board.locations}
    for index, ticket in enumerate(items):
        if not isinstance(ticket, Ticket):
            raise ArgumentError(
                f"{name}[{index}] must be a ttr_core.Ticket, not {type(ticket).__name__} "
                f"{show(ticket)}"
            )
        if (
            type(ticket.a) is not str
            or type(ticket.b) is not str
            or not {ticket.a, ticket.b} <= places
        ):
            raise ArgumentError(
                f"{name}[{index}] joins {show(ticket.a)} and {show(ticket.b)}, "
                f"not two places of map {show(board.id)}"
            )
        if type(ticket.id) is not int or type(ticket.points) is not int:
            raise ArgumentError(f"{name}[{index}] must have an int id and int points")
    return items


def shortest_spaces(board: Board) -> dict[tuple[str, str], int]:
    """The fewest route spaces between every two joined places (both orders).
    ``ArgumentError`` if ``board`` is not a :class:`Board`."""
    names = [loc.name for loc in _check_board(board).locations]
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    far = 10**9
    dist = [[0 if i == j else far for j in range(n)] for i in range(n)]
    for route in board.routes:
        a, b = index[route.a], index[route.b]
        if route.length < dist[a][b]:
            dist[a][b] = dist[b][a] = route.length
    for k in range(n):  # Floyd–Warshall: the boards are small
        dk = dist[k]
        for i in range(n):
            di = dist[i]
            via = di[k]
            if via == far:
                continue
            for j in range(n):
                if via + dk[j] < di[j]:
                    di[j] = via + dk[j]
    return {
        (names[i], names[j]): dist[i][j]
        for i in range(n)
        for j in range(n)
        if i != j and dist[i][j] < far
    }


def generate_tickets(
    board: Board,
    count: int,
    seed: int = 0,
    *,
    existing: Iterable[Ticket] = (),
    extra: Mapping[str, Any] | None = None,
) -> tuple[Ticket, ...]:
    """``count`` new tickets for ``board``, numbered after ``existing``.

    No two tickets (new or existing) join the same two places; a ticket is
    worth the fewest spaces between its places (at least :data:`MIN_POINTS`);
    places are used as evenly as the board allows. Deterministic for a seed.
    ``extra`` is each new ticket's variant fields (the map's defaults).
    Raises :class:`MapError` for a count below 0 or above the pairs the board
    has left, or a seed that is not an int of at most :data:`MAX_SEED_BITS`
    bits; :class:`ArgumentError` for a ``board`` that is not a :class:`Board`,
    ``existing`` that is not an iterable of tickets of the board, or ``extra``
    that is not a mapping with ``str`` keys.
    """
    _check_board(board)
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        problem = f"count must be an int ≥ 0, not {type(count).__name__} {show(count)}"
        raise MapError([MapProblem(board.source, "tickets", problem)])
    if isinstance(seed, bool) or not isinstance(seed, int) or seed.bit_length() > MAX_SEED_BITS:
        problem = (
            f"seed must be an int of at most {MAX_SEED_BITS} bits, "
            f"not {type(seed).__name__} {show(seed)}"
        )
        raise MapError([MapProblem(board.source, "tickets", problem)])
    kept = _tickets_of(board, "existing", existing)
    if extra is not None and (
        not isinstance(extra, Mapping) or not all(type(key) is str for key in extra)
    ):
        raise ArgumentError(
            f"extra must be a mapping of field names (str) to values, not "
            f"{type(extra).__name__} {show(extra)}"
        )
    fields = dict(extra or {})
    taken = {frozenset((t.a, t.b)) for t in kept}
    distances = shortest_spaces(board)
    order = {loc.name: loc.id for loc in board.locations}
    pairs = sorted(
        (a, b)
        for (a, b), d in distances.items()
        if order[a] < order[b] and d >= MIN_POINTS and frozenset((a, b)) not in taken
    )
    if len(pairs) < count:
        raise MapError(
            [
                MapProblem(
                    board.source,
                    "tickets",
                    f"{show(count)} tickets asked for, but only {len(pairs)} pairs of places "
                    "are left",
                )
            ]
        )
    rng = random.Random(f"ttr-core:tickets:{board.id}:{seed}")
    rng.shuffle(pairs)
    uses = {loc.name: 0 for loc in board.locations}
    for ticket in kept:
        uses[ticket.a] += 1
        uses[ticket.b] += 1
    made: list[Ticket] = []
    next_id = max((t.id for t in kept), default=-1) + 1
    # The pair whose places are least used so far, the shuffle breaking ties:
    # the least (uses, position) pair. Uses only grow, so a heap entry's key is
    # never above the pair's real key; an entry found stale at the top is put
    # back with its real key. (A scan of every pair per ticket is quadratic.)
    heap = [(uses[a] + uses[b], i) for i, (a, b) in enumerate(pairs)]
    heapq.heapify(heap)
    for _ in range(count):
        while True:
            used, i = heap[0]
            a, b = pairs[i]
            now = uses[a] + uses[b]
            if now == used:
                heapq.heappop(heap)
                break
            heapq.heapreplace(heap, (now, i))
        uses[a] += 1
        uses[b] += 1
        made.append(Ticket(next_id, a, b, distances[(a, b)], dict(fields)))
        next_id += 1
    return tuple(made)


def ticket_deck_toml(board: Board, tickets: Iterable[Ticket]) -> str:
    """A ticket deck file for ``board`` (the format ``new_game(..., tickets=...)`` reads).
    ``ArgumentError`` for a ``board`` that is not a :class:`Board` or ``tickets``
    that are not tickets of it."""
    deck = _tickets_of(_check_board(board), "tickets", tickets)
    lines = [
        f"# A ticket deck for map {board.id!r} ({board.name}).",
        "# Format: docs/map-format.md, 'Ticket deck files'.",
        "format = 1",
        "",
        "[deck]",
        f"map = {json.dumps(board.id, ensure_ascii=False)}",
        "",
        "[board]",
        "tickets = [",
    ]
    for t in deck:
        a, b = json.dumps(t.a, ensure_ascii=False), json.dumps(t.b, ensure_ascii=False)
        lines.append(f"  {{ id = {t.id}, a = {a}, b = {b}, points = {t.points} }},")
    lines.append("]")
    return "\n".join(lines) + "\n"
