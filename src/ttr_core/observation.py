"""A fixed-length vector of numbers for what one seat sees: the observation encoder.

Learning and search libraries (the OpenSpiel and PettingZoo adapters) want a
flat list of numbers of a fixed length per game configuration.
:func:`observation_encoder` builds, once per configuration (board, player
count, variants, options), an :class:`ObservationEncoder` whose
:meth:`~ObservationEncoder.encode` turns a :class:`~ttr_core.PlayerView` into
such a list::

    encoder = observation_encoder(state.board, state.num_players, state.rules.variants)
    vector = encoder.encode(player_view(state, seat))      # len(vector) == encoder.size
    dict(zip(encoder.names, vector))                        # feature name -> value

Pure Python, no numpy. It reads **only the view**, so it cannot leak what the
seat may not see: two states the seat cannot tell apart (the same view) give
the same vector.

:meth:`~ObservationEncoder.encode_state` gives the same vector from a state
and a seat, ``encoder.encode_state(state, seat) == encoder.encode(player_view(state,
seat))``, 1.5 to 1.7 times as fast: it reads of the state only what the view would
show, without building the view (the OpenSpiel and PettingZoo adapters use
it; a test compares the two on every seat of random games). The board's
constants the vector is scaled by are worked out once per encoder.

Layout
======

Features come in this order; ``encoder.names`` names each one. "Relative"
means seat ``(viewer + k) % players`` is written at position ``k``: position
0 is always the viewer, 1 the next seat to play, and so on. Numbers are
scaled to about ``[0, 1]`` by a natural maximum (given in brackets).

======================================  ================================================
names                                   value
======================================  ================================================
``seat[i]``                             one-hot: the viewer's seat number
``to_move[+k]``                         one-hot: the seat deciding, relative (all 0
                                        once the game is over)
``pending[kind]``                       one-hot over the core decision kinds
                                        (``start_tickets``, ``turn``,
                                        ``second_card``, ``keep_tickets``) and
                                        ``other`` (a variant's own kind); all 0 once
                                        over
``is_over``                             1 once the game has ended
``hand[card]``                          own cards of each kind [that card's count in
                                        the game]
``my_ticket[t]``                        multi-hot over the map's tickets: tickets kept
``offered[t]``                          multi-hot: tickets on offer to the viewer (its
                                        own pending choice only)
``min_keep``                            how many of them must be kept [largest offer]
``offer_size``                          tickets on offer in the pending choice,
                                        whoever decides [largest offer]
``display[card]``                       face-up cards of each kind [display size]
``deck_size``, ``discard_size``         card piles [cards in the game]
``ticket_deck_size``,                   ticket piles [tickets on the map]
``ticket_discard_size``
``ticket_discard[t]``                   multi-hot: the face-up ticket discard pile
``seat[+k].cars``                       per seat, relative: cars left [cars per player]
``seat[+k].hand_size``                  cards in hand [cards in the game]
``seat[+k].tickets``                    tickets held [tickets on the map]
``seat[+k].score``                      running score [points of every route on the
                                        map]; may be negative
``seat[+k].known[card]``                cards every player knows it holds (taken face
                                        up) [that card's count in the game]
``route[r].owner[+k]``                  per route, one-hot: owned by the seat ``+k``
                                        (relative)
``route[r].owner[other]``               owned by someone who is not a seat (a neutral
                                        player); all 0: unclaimed
``final_round``                         1 once the final round has begun
``final_turns``                         turns left in it [players]; 0 before it
``turn``                                turns played [2 × players × cars per player,
                                        more than most games last]: may pass 1
``passes``                              consecutive passes [players]
``variant:KEY`` / ``variant:KEY[i]``    variant state the view shows (below)
======================================  ================================================

Variant state
=============

Variants are encoded generically, without naming any: the view's
``variants`` mapping is read in sorted key order. The configuration's
*first view* (seat 0's view of a new game with seed 0) fixes which keys are
encoded and their shape:

* a number (``int``, ``float`` or ``bool``) is one feature ``variant:KEY``;
* a tuple of numbers is one feature per element, ``variant:KEY[i]``;
* anything else (``None``, strings, nested tuples, mappings, objects) is
  **not encoded**; such keys are listed in ``encoder.skipped``. So is a key
  that first appears in later views.

Encoded keys that share a prefix before the first dot (by convention the
keys of one variant, ``tolls.holdings`` and ``tolls.loans``) are divided by
one scale: the largest absolute number any of them had in the first view
(at least 1). So a count that starts full (a deck of merchandise cards, a
toll value) starts at 1 and the counts drawn from it stay within about
``[0, 1]``. A later view in which an encoded key is
missing or has another shape (a different length, a non-number) raises
:class:`ObservationError`, a :class:`~ttr_core.TtrError`.

Not encoded
===========

What the view shows that is left out: the game's seed and the deck order
(never shown), the start offers of other seats (only sizes, which the
engine shows as ``start_offer_sizes``: left out), ``shuffles``, how the game
ended (stalemate or cars) beyond ``is_over``, the order in which routes were
claimed, and whatever a variant shows in a form listed above as not encoded.
The history of play is not in the view either: an agent that needs it keeps
its own (the OpenSpiel adapter's information state adds it).
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import attrs

from .board import Board, derive, evict_oldest
from .engine import new_game
from .errors import ArgumentError, PlayerCountError, TtrError, printable
from .plugin_manager import game_rules, resolve_variants
from .state import GameState, PendingKind
from .views import (
    PlayerView,
    SeatView,
    check_seat_argument,
    non_seat_owners,
    offer_seen,
    player_view,
)

__all__ = ["ObservationEncoder", "ObservationError", "encoder_for_view", "observation_encoder"]

#: The core's decision kinds, in the order of the ``pending[...]`` one-hot.
CORE_KINDS: tuple[str, ...] = tuple(str(kind) for kind in PendingKind)

#: Most encoders kept per board (configurations: players, variants, options).
ENCODERS_KEPT = 64


class ObservationError(TtrError, ValueError):
    """A view the encoder cannot encode: one of another configuration, or
    variant state of another shape than the configuration's first view had."""


#: How one variant key is encoded: (key, length or None for a scalar, scale).
_VariantSlot = tuple[str, int | None, float]


def _is_number(value: object) -> bool:
    """An int, float or bool (any real number)."""
    return isinstance(value, numbers.Real)


class _Layout:
    """What one encoder's :meth:`~ObservationEncoder.encode` reads of its board on
    every call, worked out once (the divisors stay the same ints, so every
    number comes out bit for bit as the plain formula gives it)."""

    __slots__ = (
        "cars",
        "deck",
        "display_scale",
        "index",
        "kind_slot",
        "kinds",
        "offer_scale",
        "routes",
        "score_scale",
        "tickets",
        "total_cards",
    )

    def __init__(self, board: Board) -> None:
        rules = board.rules
        self.kinds = len(board.card_names)
        #: Each card's count in the game, ``or 1`` (a divisor).
        self.deck: tuple[int, ...] = tuple(count or 1 for count in board.deck)
        self.tickets = len(board.tickets)
        self.total_cards = board.total_cards or 1
        self.offer_scale = max(rules.start_tickets_dealt, rules.draw_tickets, 1)
        self.index: dict[str, int] = {name: i for i, name in enumerate(board.card_names)}
        self.display_scale = rules.display_size or 1
        self.cars = rules.cars_per_player or 1
        self.score_scale = _score_scale(board)
        self.routes = len(board.routes)
        #: A pending kind's slot in the ``pending[...]`` one-hot (others: the last).
        self.kind_slot: dict[str, int] = {kind: i for i, kind in enumerate(CORE_KINDS)}


#: A seat's known cards when it knows none (read only).
_NONE_KNOWN: Mapping[str, int] = MappingProxyType({})

#: One seat as the layout reads it: (seat, cars, hand size, tickets held,
#: score, known cards by name, routes).
_Seat = tuple[int, int, int, int, int, Mapping[str, int], tuple[int, ...]]


@attrs.frozen(eq=False)
class ObservationEncoder:
    """The observation vector of one game configuration (see :mod:`ttr_core.observation`).

    ``size`` is the length of every vector :meth:`encode` returns and
    ``names`` names each feature. ``skipped`` lists the variant view keys
    that are not encoded.
    """

    board: Board = attrs.field(repr=False)
    players: int
    variants: tuple[str, ...]
    size: int
    names: tuple[str, ...] = attrs.field(repr=False)
    skipped: tuple[str, ...] = ()
    #: The variant options, as ``GameRules.options`` holds them.
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...] = attrs.field(
        default=(), repr=False
    )
    _variant_slots: tuple[_VariantSlot, ...] = attrs.field(default=(), repr=False)
    # The board's constants, worked out once per encoder (the encoder is kept).
    _layout: _Layout = attrs.field(init=False, repr=False)

    @_layout.default
    def _make_layout(self) -> _Layout:
        return _Layout(self.board)

    def encode(self, view: PlayerView) -> list[float]:
        """The observation vector of ``view`` (a list of ``size`` floats).

        Raises :class:`ArgumentError` for something that is not a
        :class:`PlayerView` and :class:`ObservationError` for a view of
        another configuration or with variant state of another shape.
        """
        if not isinstance(view, PlayerView):
            raise ArgumentError(f"view must be a ttr_core.PlayerView, not {type(view).__name__}")
        board = self.board
        n = self.players
        if (
            view.board is not board
            or len(view.seats) != n
            or view.variant_names != self.variants
            or view.options != self.options
        ):
            raise ObservationError(
                f"a view of {view.board.id!r} with {len(view.seats)} seats, variants "
                f"{list(view.variant_names)} and options {dict(view.options)} cannot be encoded "
                f"by the encoder of {board.id!r} with {n} seats, variants {list(self.variants)} "
                f"and options {dict(self.options)}"
                + (" (the same map id, another board)" if view.board is not board else "")
            )
        index = self._layout.index
        return self._write(
            view.viewer,
            view.current_player,
            view.pending,
            view.is_over,
            view.hand.counts,
            view.tickets,
            view.offered,
            view.min_keep,
            view.offer_size,
            [index[face_up] for face_up in view.display if face_up is not None],
            (view.deck_size, view.discard_size, view.ticket_deck_size, view.ticket_discard_size),
            view.ticket_discard,
            [
                (s.seat, s.cars, s.hand_size, s.tickets_held, s.score, s.known, s.routes)
                for s in view.seats
            ],
            [other.routes for other in view.others],
            (view.final_turns, view.turn, view.passes),
            view.variants,
        )

    def encode_state(self, state: GameState, seat: int) -> list[float]:
        """``encode(player_view(state, seat))``, equal number for number, without
        building the view (the adapters' fast path).

        It reads of ``state`` only what :func:`~ttr_core.player_view` shows
        ``seat`` (its own hand and offer; of the other seats only counts and
        public facts; variant state through the same hook), and the test
        ``tests/test_adapter_speed.py`` checks it against the view's vector
        on every seat of thousands of positions. Raises :class:`ArgumentError`
        for a state or seat :func:`~ttr_core.player_view` refuses and
        :class:`ObservationError` as :meth:`encode` does.
        """
        check_seat_argument(state, seat)
        board = self.board
        rules = state.rules
        if (
            state.board is not board
            or len(state.players) != self.players
            or rules.variants != self.variants
            or rules.options != self.options
        ):
            # The view's check gives the message.
            return self.encode(player_view(state, seat))
        pending = state.pending
        offered, min_keep = offer_seen(state, seat)
        names = board.card_names
        known = SeatView._known
        me = state.players[seat]
        return self._write(
            seat,
            state.current_player,
            None if pending is None else str(pending.kind),
            state.termination is not None,
            me.hand.counts,
            me.tickets,
            offered,
            min_keep,
            0 if pending is None else len(pending.offered),
            [card for card in state.display if card is not None],
            (
                len(state.deck),
                sum(state.discard),
                len(state.ticket_deck),
                len(state.ticket_discard),
            ),
            state.ticket_discard,
            [
                (
                    number,
                    p.cars,
                    p.hand.total,
                    len(p.tickets),
                    p.score,
                    # The view's rule; no card known (all 0, the usual case): nothing shown.
                    known(p.known, p.hand.counts, names) if any(p.known) else _NONE_KNOWN,
                    p.routes,
                )
                for number, p in enumerate(state.players)
            ],
            [other.routes for other in non_seat_owners(state)],
            (state.final_turns, state.turn, state.passes),
            rules.run_player_view(state, seat) if rules.player_view else {},
        )

    def _write(
        self,
        viewer: int,
        current: int | None,
        pending: str | None,
        is_over: bool,
        hand: Sequence[int],
        tickets_held: Sequence[int],
        offered: Sequence[int],
        min_keep: int,
        offer_size: int,
        display: Sequence[int],
        piles: tuple[int, int, int, int],
        ticket_discard: Sequence[int],
        seats: Sequence[_Seat],
        others: Sequence[Sequence[int]],
        ending: tuple[int, int, int],
        variant_values: Mapping[str, Any],
    ) -> list[float]:
        """The vector of what seat ``viewer`` sees, given field by field (the
        layout's one writer, for :meth:`encode` and :meth:`encode_state`)."""
        layout = self._layout
        n = self.players
        kinds = layout.kinds
        deck = layout.deck
        tickets = layout.tickets
        ticket_scale = tickets or 1
        total_cards = layout.total_cards
        offer_scale = layout.offer_scale
        index = layout.index
        out: list[float] = [0.0] * self.size
        at = 0

        out[at + viewer] = 1.0
        at += n
        if current is not None and not is_over:
            out[at + (current - viewer) % n] = 1.0
        at += n
        if pending is not None:
            out[at + layout.kind_slot.get(pending, len(CORE_KINDS))] = 1.0
        at += len(CORE_KINDS) + 1
        out[at] = 1.0 if is_over else 0.0
        at += 1

        for card, count in enumerate(hand):
            out[at + card] = count / deck[card]
        at += kinds
        for ticket in tickets_held:
            out[at + ticket] = 1.0
        at += tickets
        for ticket in offered:
            out[at + ticket] = 1.0
        at += tickets
        out[at] = min_keep / offer_scale
        out[at + 1] = offer_size / offer_scale
        at += 2
        step = 1.0 / layout.display_scale
        for card in display:
            out[at + card] += step
        at += kinds
        deck_size, discard_size, ticket_deck_size, ticket_discard_size = piles
        out[at] = deck_size / total_cards
        out[at + 1] = discard_size / total_cards
        out[at + 2] = ticket_deck_size / ticket_scale
        out[at + 3] = ticket_discard_size / ticket_scale
        at += 4
        for ticket in ticket_discard:
            out[at + ticket] = 1.0
        at += tickets

        cars = layout.cars
        score_scale = layout.score_scale
        per_seat = 4 + kinds
        for k in range(n):
            _, seat_cars, hand_size, held, score, known, _ = seats[(viewer + k) % n]
            base = at + k * per_seat
            out[base] = seat_cars / cars
            out[base + 1] = hand_size / total_cards
            out[base + 2] = held / ticket_scale
            out[base + 3] = score / score_scale
            for name, count in known.items():
                card = index[name]
                out[base + 4 + card] = count / deck[card]
        at += n * per_seat

        width = n + 1
        for seat in seats:
            column = (seat[0] - viewer) % n
            for route in seat[6]:
                out[at + route * width + column] = 1.0
        for routes in others:
            for route in routes:
                out[at + route * width + n] = 1.0
        at += layout.routes * width

        final, turn, passes = ending
        out[at] = 1.0 if final >= 0 else 0.0
        out[at + 1] = max(final, 0) / n
        out[at + 2] = turn / (2 * n * cars)
        out[at + 3] = passes / n
        at += 4

        for key, length, scale in self._variant_slots:
            if key not in variant_values:
                raise ObservationError(
                    f"variant state {key!r} is missing from this view; the configuration's "
                    "first view had it"
                )
            value = variant_values[key]
            if length is None:
                if not _is_number(value):
                    raise ObservationError(
                        f"variant state {key!r} is {value!r}; the configuration's first view "
                        "had a number there"
                    )
                out[at] = float(value) / scale
                at += 1
            else:
                if (
                    not isinstance(value, tuple)
                    or len(value) != length
                    or not all(_is_number(v) for v in value)
                ):
                    raise ObservationError(
                        f"variant state {key!r} is {value!r}; the configuration's first view "
                        f"had a tuple of {length} numbers there"
                    )
                for i, v in enumerate(value):
                    out[at + i] = float(v) / scale
                at += length
        assert at == self.size
        return out


def _group(key: str) -> str:
    """The keys that share a scale: those with the same prefix before the first dot."""
    return key.split(".", 1)[0]


def _score_scale(board: Board) -> float:
    """The points of every route on the map: a natural maximum for a running score."""
    points = board.rules.route_points
    total = sum(points.get(route.length, 0) for route in board.routes)
    return float(total) if total > 0 else 1.0


def observation_encoder(
    board: Board,
    players: int,
    variants: Sequence[str] | None = (),
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> ObservationEncoder:
    """The observation encoder of a game configuration (built once, kept on the board).

    ``variants`` are the game's variants (``()``: none; ``None``: the map's
    defaults), ``options`` their options as :func:`ttr_core.new_game` takes
    them. Raises what :func:`ttr_core.new_game` raises for a configuration
    that cannot be played (:class:`~ttr_core.PlayerCountError`,
    :class:`~ttr_core.UnknownVariantError`, :class:`~ttr_core.OptionError`,
    :class:`~ttr_core.GameConfigError`) and :class:`ArgumentError` for a
    ``board`` that is not a :class:`~ttr_core.Board`.
    """
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {type(board).__name__}")
    if variants is not None and isinstance(variants, str):
        raise ArgumentError(f"variants must be a sequence of variant names, not {variants!r}")
    low, high = board.rules.min_players, board.rules.max_players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        raise PlayerCountError(board.id, printable(players), low, high)
    names = resolve_variants(board, variants)
    rules = game_rules(board, players, names, options)
    key = ("observation_encoder", players, rules.variants, rules.options)
    encoder: ObservationEncoder | None = board.derived.get(key)
    if encoder is None:
        # Kept per configuration, as many as the rule sets (options vary freely).
        encoder = derive(
            board,
            key,
            lambda: _build(board, players, rules.variants, rules.options),
            evict_oldest("observation_encoder", ENCODERS_KEPT),
        )
    return encoder


def encoder_for_view(view: PlayerView) -> ObservationEncoder:
    """The encoder of the configuration ``view`` belongs to."""
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a ttr_core.PlayerView, not {type(view).__name__}")
    options = {variant: dict(values) for variant, values in view.options}
    return observation_encoder(view.board, len(view.seats), view.variant_names, options)


def _build(
    board: Board,
    players: int,
    variants: tuple[str, ...],
    options: tuple[tuple[str, tuple[tuple[str, Any], ...]], ...],
) -> ObservationEncoder:
    card_names = board.card_names
    names: list[str] = [f"seat[{i}]" for i in range(players)]
    names += [f"to_move[+{k}]" for k in range(players)]
    names += [f"pending[{kind}]" for kind in CORE_KINDS] + ["pending[other]"]
    names.append("is_over")
    names += [f"hand[{card}]" for card in card_names]
    ticket_names = [f"{t.id}:{t.a}-{t.b}" for t in board.tickets]
    names += [f"my_ticket[{t}]" for t in ticket_names]
    names += [f"offered[{t}]" for t in ticket_names]
    names += ["min_keep", "offer_size"]
    names += [f"display[{card}]" for card in card_names]
    names += ["deck_size", "discard_size", "ticket_deck_size", "ticket_discard_size"]
    names += [f"ticket_discard[{t}]" for t in ticket_names]
    for k in range(players):
        names += [f"seat[+{k}].{what}" for what in ("cars", "hand_size", "tickets", "score")]
        names += [f"seat[+{k}].known[{card}]" for card in card_names]
    for route in board.routes:
        label = f"route[{route.id}:{route.a}-{route.b}:{route.color}]"
        names += [f"{label}.owner[+{k}]" for k in range(players)]
        names.append(f"{label}.owner[other]")
    names += ["final_round", "final_turns", "turn", "passes"]

    slots: list[_VariantSlot] = []
    skipped: list[str] = []
    if variants:
        given = {variant: dict(values) for variant, values in options}
        first = player_view(new_game(board, players, seed=0, variants=variants, options=given), 0)
        numeric: dict[str, int | None] = {}
        group_scale: dict[str, float] = {}
        for key in sorted(first.variants):
            value = first.variants[key]
            if _is_number(value):
                numbers_seen = [abs(float(value))]
                numeric[key] = None
            elif isinstance(value, tuple) and value and all(_is_number(v) for v in value):
                numbers_seen = [abs(float(v)) for v in value]
                numeric[key] = len(value)
            else:
                skipped.append(key)
                continue
            group = _group(key)
            group_scale[group] = max(group_scale.get(group, 1.0), *numbers_seen)
        for key, length in numeric.items():
            slots.append((key, length, group_scale[_group(key)]))
            if length is None:
                names.append(f"variant:{key}")
            else:
                names += [f"variant:{key}[{i}]" for i in range(length)]
    return ObservationEncoder(
        board=board,
        players=players,
        variants=variants,
        size=len(names),
        names=tuple(names),
        skipped=tuple(skipped),
        options=options,
        variant_slots=tuple(slots),
    )
