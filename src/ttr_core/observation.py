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
from typing import Any

import attrs

from .board import Board, derive, evict_oldest
from .engine import new_game
from .errors import ArgumentError, PlayerCountError, TtrError, printable
from .plugin_manager import game_rules, resolve_variants
from .state import PendingKind
from .views import PlayerView, player_view

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
        rules = board.rules
        names = board.card_names
        kinds = len(names)
        deck = board.deck
        tickets = len(board.tickets)
        total_cards = board.total_cards or 1
        offer_scale = max(rules.start_tickets_dealt, rules.draw_tickets, 1)
        viewer = view.viewer
        out: list[float] = [0.0] * self.size
        at = 0

        out[at + viewer] = 1.0
        at += n
        current = view.current_player
        if current is not None and not view.is_over:
            out[at + (current - viewer) % n] = 1.0
        at += n
        if view.pending is not None:
            kind = view.pending
            slot = CORE_KINDS.index(kind) if kind in CORE_KINDS else len(CORE_KINDS)
            out[at + slot] = 1.0
        at += len(CORE_KINDS) + 1
        out[at] = 1.0 if view.is_over else 0.0
        at += 1

        for card, count in enumerate(view.hand.counts):
            out[at + card] = count / (deck[card] or 1)
        at += kinds
        for ticket in view.tickets:
            out[at + ticket] = 1.0
        at += tickets
        for ticket in view.offered:
            out[at + ticket] = 1.0
        at += tickets
        out[at] = view.min_keep / offer_scale
        out[at + 1] = view.offer_size / offer_scale
        at += 2
        index = {name: i for i, name in enumerate(names)}
        display_scale = rules.display_size or 1
        for face_up in view.display:
            if face_up is not None:
                out[at + index[face_up]] += 1.0 / display_scale
        at += kinds
        out[at] = view.deck_size / total_cards
        out[at + 1] = view.discard_size / total_cards
        out[at + 2] = view.ticket_deck_size / (tickets or 1)
        out[at + 3] = view.ticket_discard_size / (tickets or 1)
        at += 4
        for ticket in view.ticket_discard:
            out[at + ticket] = 1.0
        at += tickets

        cars = rules.cars_per_player or 1
        score_scale = _score_scale(board)
        per_seat = 4 + kinds
        for k in range(n):
            seat = view.seats[(viewer + k) % n]
            base = at + k * per_seat
            out[base] = seat.cars / cars
            out[base + 1] = seat.hand_size / total_cards
            out[base + 2] = seat.tickets_held / (tickets or 1)
            out[base + 3] = seat.score / score_scale
            for name, count in seat.known.items():
                card = index[name]
                out[base + 4 + card] = count / (deck[card] or 1)
        at += n * per_seat

        width = n + 1
        for seat in view.seats:
            column = (seat.seat - viewer) % n
            for route in seat.routes:
                out[at + route * width + column] = 1.0
        for other in view.others:
            for route in other.routes:
                out[at + route * width + n] = 1.0
        at += len(board.routes) * width

        final = view.final_turns
        out[at] = 1.0 if final >= 0 else 0.0
        out[at + 1] = max(final, 0) / n
        out[at + 2] = view.turn / (2 * n * cars)
        out[at + 3] = view.passes / n
        at += 4

        variant_values = view.variants
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
