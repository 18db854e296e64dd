"""Where each part of an observation vector lies: the layout of one game
configuration's vector, part by part (each a row of numbers or a set of ones
at a fixed place), and the scales the numbers are divided by.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

from ttr_core.model.board import Board
from ttr_core.model.state import PendingKind

#: The core's decision kinds, in the order of the ``pending[...]`` one-hot.
CORE_KINDS: tuple[str, ...] = tuple(str(kind) for kind in PendingKind)


#: How one variant key is encoded: (key, length or None for a scalar, scale).
_VariantSlot = tuple[str, int | None, float]


def _is_number(value: object) -> bool:
    """An int, float or bool (any real number)."""
    return isinstance(value, numbers.Real)


class _Layout:
    """Where each part of one configuration's vector starts, and what its
    numbers are scaled by, worked out once per encoder; with each part's
    numbers (the divisors stay the same ints, so every number comes out bit
    for bit as the plain formula gives it).

    A part is a *row* (its numbers, at a fixed place) or a set of *ones*
    (the places that hold 1.0; every other place of that part holds 0.0).
    The encoder writes every part into a zeroed list; the
    :class:`ObservationTracker` writes again only the parts whose inputs
    changed, and of those only the numbers that changed.
    """

    __slots__ = (
        "at_display",
        "at_ending",
        "at_hand",
        "at_held",
        "at_keep",
        "at_move",
        "at_over",
        "at_pending",
        "at_piles",
        "at_routes",
        "at_seats",
        "at_ticket_discard",
        "at_variants",
        "cars",
        "deck",
        "display_scale",
        "index",
        "kind_slot",
        "kinds",
        "offer_scale",
        "per_seat",
        "players",
        "routes",
        "score_scale",
        "ticket_scale",
        "tickets",
        "total_cards",
        "width",
    )

    def __init__(self, board: Board, players: int) -> None:
        rules = board.rules
        n = self.players = players
        kinds = self.kinds = len(board.card_names)
        #: Each card's count in the game, ``or 1`` (a divisor).
        self.deck: tuple[int, ...] = tuple(count or 1 for count in board.deck)
        tickets = self.tickets = len(board.tickets)
        self.ticket_scale = tickets or 1
        self.total_cards = board.total_cards or 1
        self.offer_scale = max(rules.start_tickets_dealt, rules.draw_tickets, 1)
        self.index: dict[str, int] = {name: i for i, name in enumerate(board.card_names)}
        self.display_scale = rules.display_size or 1
        self.cars = rules.cars_per_player or 1
        self.score_scale = _score_scale(board)
        self.routes = len(board.routes)
        #: A pending kind's slot in the ``pending[...]`` one-hot (others: the last).
        self.kind_slot: dict[str, int] = {kind: i for i, kind in enumerate(CORE_KINDS)}
        # Where each part starts (the order of the module's table).
        self.at_move = n
        self.at_pending = 2 * n
        self.at_over = self.at_pending + len(CORE_KINDS) + 1
        self.at_hand = self.at_over + 1
        self.at_held = self.at_hand + kinds
        self.at_keep = self.at_held + 2 * tickets  # my_ticket, offered, then min_keep
        self.at_display = self.at_keep + 2
        self.at_piles = self.at_display + kinds
        self.at_ticket_discard = self.at_piles + 4
        self.at_seats = self.at_ticket_discard + tickets
        self.per_seat = 4 + kinds
        self.at_routes = self.at_seats + n * self.per_seat
        #: A route's owner columns: one per seat (relative), then ``other``.
        self.width = n + 1
        self.at_ending = self.at_routes + self.routes * self.width
        self.at_variants = self.at_ending + 4

    def header_ones(
        self, viewer: int, current: int | None, pending: str | None, over: bool
    ) -> list[int]:
        """``seat``, ``to_move``, ``pending`` and ``is_over`` (ones)."""
        ones = [viewer]
        if current is not None and not over:
            ones.append(self.at_move + (current - viewer) % self.players)
        if pending is not None:
            ones.append(self.at_pending + self.kind_slot.get(pending, len(CORE_KINDS)))
        if over:
            ones.append(self.at_over)
        return ones

    def hand_row(self, hand: Sequence[int]) -> list[float]:
        """``hand``: the viewer's own cards (a row at ``at_hand``)."""
        deck = self.deck
        return [count / deck[card] for card, count in enumerate(hand)]

    def ticket_ones(self, held: Sequence[int], offered: Sequence[int]) -> list[int]:
        """``my_ticket`` and ``offered`` (ones)."""
        at = self.at_held
        tickets = self.tickets
        return [at + ticket for ticket in held] + [at + tickets + ticket for ticket in offered]

    def keep_row(self, min_keep: int, offer_size: int) -> list[float]:
        """``min_keep`` and ``offer_size`` (a row at ``at_keep``)."""
        return [min_keep / self.offer_scale, offer_size / self.offer_scale]

    def display_row(self, display: Sequence[int]) -> list[float]:
        """``display``: the face-up cards' kinds (a row at ``at_display``)."""
        row = [0.0] * self.kinds
        step = 1.0 / self.display_scale
        for card in display:
            row[card] += step
        return row

    def piles_row(self, piles: tuple[int, int, int, int]) -> list[float]:
        """The piles' sizes (a row at ``at_piles``)."""
        deck_size, discard_size, ticket_deck_size, ticket_discard_size = piles
        return [
            deck_size / self.total_cards,
            discard_size / self.total_cards,
            ticket_deck_size / self.ticket_scale,
            ticket_discard_size / self.ticket_scale,
        ]

    def ticket_discard_ones(self, ticket_discard: Sequence[int]) -> list[int]:
        """``ticket_discard`` (ones)."""
        at = self.at_ticket_discard
        return [at + ticket for ticket in ticket_discard]

    def seat_row(
        self, cars: int, hand_size: int, held: int, score: int, known: Sequence[int]
    ) -> list[float]:
        """One seat's ``seat[+k]...`` numbers (a row at ``at_seats + k * per_seat``);
        ``known`` is what the view shows of its hand, card by card."""
        deck = self.deck
        row = [
            cars / self.cars,
            hand_size / self.total_cards,
            held / self.ticket_scale,
            score / self.score_scale,
        ]
        row += [count / deck[card] for card, count in enumerate(known)]
        row += [0.0] * (self.per_seat - len(row))  # no card known: none shown
        return row

    def cell(self, route: int, column: int) -> int:
        """Where ``route[r].owner[column]`` is (column ``players``: ``other``)."""
        return self.at_routes + route * self.width + column

    def ending_row(self, ending: tuple[int, int, int]) -> list[float]:
        """``final_round``, ``final_turns``, ``turn`` and ``passes`` (a row at ``at_ending``)."""
        n = self.players
        final, turn, passes = ending
        return [
            1.0 if final >= 0 else 0.0,
            max(final, 0) / n,
            turn / (2 * n * self.cars),
            passes / n,
        ]


#: One seat as the layout reads it: (seat, cars, hand size, tickets held,
#: score, the known cards shown card by card (``()``: none), routes).
_Seat = tuple[int, int, int, int, int, Sequence[int], tuple[int, ...]]


def _put(out: list[float], at: int, row: list[float]) -> None:
    """Write ``row`` into ``out`` from ``at`` on (never changing its length)."""
    out[at : at + len(row)] = row


def _group(key: str) -> str:
    """The keys that share a scale: those with the same prefix before the first dot."""
    return key.split(".", 1)[0]


def _score_scale(board: Board) -> float:
    """The points of every route on the map: a natural maximum for a running score."""
    points = board.rules.route_points
    total = sum(points.get(route.length, 0) for route in board.routes)
    return float(total) if total > 0 else 1.0
