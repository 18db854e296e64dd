"""The observation encoder of a game configuration and the tracker that keeps
one seat's vector of a playout up to date: one layout, written by both
(:mod:`ttr_core.observation`). Together because each makes the other: an
encoder makes its trackers, a tracker writes its encoder's parts. (About 700
lines: one concept.)
"""

from __future__ import annotations

import array
from collections.abc import Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any

import attrs

from ttr_core.errors import ArgumentError, TtrError, show, what
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules, resolve_variants
from ttr_core.model.board import Board, derive, evict_oldest
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView, check_seat_argument, known_shown, offer_seen
from ttr_core.native.engine import KINDS as native_kinds
from ttr_core.native.engine import prepared as native_prepared
from ttr_core.native.engine import why_not as native_why_not
from ttr_core.observation.layout import (
    CORE_KINDS,
    _group,
    _is_number,
    _Layout,
    _put,
    _Seat,
    _VariantSlot,
)
from ttr_core.rules.checks import check_player_count
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import non_seat_owners, player_view
from ttr_core.search.playout import Playout

__all__ = [
    "ObservationEncoder",
    "ObservationError",
    "ObservationTracker",
    "encoder_for_view",
    "observation_encoder",
]


#: Most encoders kept per board (configurations: players, variants, options).
ENCODERS_KEPT = 64


class ObservationError(TtrError, ValueError):
    """A view the encoder cannot encode: one of another configuration, or
    variant state of another shape than the configuration's first view had."""


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
    # The layout's numbers for the compiled engine, worked out at its first use
    # (``()``: the engine cannot write this configuration's vector).
    _native_values: tuple[Any, ...] | None = attrs.field(default=None, init=False, repr=False)
    # The board's constants, worked out once per encoder (the encoder is kept).
    _layout: _Layout = attrs.field(init=False, repr=False)

    @_layout.default
    def _make_layout(self) -> _Layout:
        return _Layout(self.board, self.players)

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
                (
                    s.seat,
                    s.cars,
                    s.hand_size,
                    s.tickets_held,
                    s.score,
                    self._known_by_card(s.known),
                    s.routes,
                )
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
        rules = state.rules
        if not self._plays(state.board, len(state.players), rules):
            # The view's check gives the message.
            return self.encode(player_view(state, seat))
        pending = state.pending
        offered, min_keep = offer_seen(state, seat)
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
                    known_shown(p.known, p.hand.counts) if any(p.known) else (),
                    p.routes,
                )
                for number, p in enumerate(state.players)
            ],
            [other.routes for other in non_seat_owners(state)],
            (state.final_turns, state.turn, state.passes),
            calls.run_player_view(rules, state, seat) if rules.player_view else {},
        )

    def _plays(self, board: Board, players: int, rules: GameRules) -> bool:
        """Whether a game of ``board`` with ``players`` seats and ``rules`` is of
        this encoder's configuration (the same board object, not only its id)."""
        return (
            board is self.board
            and players == self.players
            and rules.variants == self.variants
            and rules.options == self.options
        )

    def observe(self, play: Playout, seat: int, out: Any = None) -> Any:
        """Seat ``seat``'s observation vector of ``play``'s position as 32-bit
        floats, written into ``out`` (a writable float32 buffer of ``size``
        numbers: a NumPy array, an ``array('f')``) and returned; a new
        ``array('f')`` without one. The numbers are :meth:`encode_state`'s.

        On the compiled engine (``play.engine == "native"``) the engine writes
        them itself, in C, from its own state: no frozen state, no view. Raises
        :class:`ArgumentError` for a playout, seat or buffer it cannot take and
        :class:`ObservationError` for a playout of another configuration.
        """
        if not isinstance(play, Playout):
            raise ArgumentError(f"play must be a ttr_core.Playout, not {what(play)}")
        if out is None:
            out = array.array("f", bytes(4 * self.size))
        try:
            view = memoryview(out)
        except TypeError:
            raise ArgumentError(f"out must be a writable buffer, not {what(out)}") from None
        with view:
            if (
                view.readonly
                or view.format not in ("f", "<f", "=f")
                or view.nbytes != 4 * self.size
                or not view.c_contiguous
            ):
                raise ArgumentError(
                    f"out must be a writable, contiguous float32 buffer of {self.size} numbers"
                )
            game = play._compiled()
            state = None if game is not None else play.snapshot()
            if game is not None:
                rules = game.base.rules
                if not self._plays(rules.board, rules.players, rules):
                    state = play.snapshot()  # encode_state names the mismatch
            if state is None and self.natively:
                if type(seat) is not int or not 0 <= seat < self.players:
                    raise ArgumentError(
                        f"seat must be a seat from 0 to {self.players - 1}, not {show(seat)}"
                    )
                game.observe(seat, view, self._native_values)
            else:
                numbers = self.encode_state(play.snapshot() if state is None else state, seat)
                view.cast("B").cast("f")[:] = array.array("f", numbers)
        return out

    @property
    def natively(self) -> bool:
        """Whether the compiled engine writes this configuration's vectors itself
        when it plays the game (:meth:`observe` of a native playout, the
        adapters): every variant view key the vector holds is one its variant
        declares in the engine's terms (``NativeRule.views``). Otherwise the
        engine plays and the Python encoder observes from a snapshot."""
        return self._native_layout() is not None

    def _native_layout(self) -> tuple[Any, ...] | None:
        """The layout as the compiled engine takes it (``Config.set_layout``), or
        ``None`` when the engine cannot write this configuration's vectors."""
        found = self._native_values
        if found is None:
            found = self._native_parts()
            object.__setattr__(self, "_native_values", found)  # a cache of a frozen object
        return found or None

    def _native_parts(self) -> tuple[Any, ...]:
        """``Config.set_layout``'s arguments, or ``()`` (see :meth:`_native_layout`)."""
        views: dict[str, tuple[int, str | None]] = {}
        if self._variant_slots:
            given = {variant: dict(values) for variant, values in self.options}
            rules = game_rules(self.board, self.players, self.variants, given)
            if native_why_not(rules) is not None:
                return ()
            views = {key: (code, shape) for key, code, shape in native_prepared(rules).views}
        lay = self._layout
        lengths = {
            None: None,
            "card kind": lay.kinds,
            "location": len(self.board.locations),
            "seat": self.players,
        }
        parts: list[tuple[int, int, float]] = []
        at = lay.at_variants
        for key, length, scale in self._variant_slots:
            declared = views.get(key)
            if declared is None or lengths[declared[1]] != length:
                return ()  # a view key the engine does not know: the Python encoder's
            parts.append((declared[0], at, scale))
            at += 1 if length is None else length
        ints = (
            lay.at_move, lay.at_pending, lay.at_over, lay.at_hand, lay.at_held,
            lay.at_keep, lay.at_display, lay.at_piles, lay.at_ticket_discard,
            lay.at_seats, lay.per_seat, lay.at_routes, lay.width, lay.at_ending,
            self.size, lay.total_cards, lay.ticket_scale, lay.offer_scale,
            lay.display_scale, lay.cars,
        )  # fmt: skip
        slots = tuple(lay.kind_slot[str(kind)] for kind in native_kinds)
        return (ints, lay.score_scale, slots, lay.deck, tuple(parts))

    def tracker(self, seat: int) -> ObservationTracker:
        """A new :class:`ObservationTracker` of seat ``seat``: this encoder's
        vector of a playout's position, kept up to date step by step."""
        return ObservationTracker(self, seat)

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
        out: list[float] = [0.0] * self.size
        for at in layout.header_ones(viewer, current, pending, is_over):
            out[at] = 1.0
        _put(out, layout.at_hand, layout.hand_row(hand))
        for at in layout.ticket_ones(tickets_held, offered):
            out[at] = 1.0
        _put(out, layout.at_keep, layout.keep_row(min_keep, offer_size))
        _put(out, layout.at_display, layout.display_row(display))
        _put(out, layout.at_piles, layout.piles_row(piles))
        for at in layout.ticket_discard_ones(ticket_discard):
            out[at] = 1.0
        n = self.players
        for k in range(n):
            _, cars, hand_size, held, score, known, _ = seats[(viewer + k) % n]
            row = layout.seat_row(cars, hand_size, held, score, known)
            _put(out, layout.at_seats + k * layout.per_seat, row)
        cell = layout.cell
        for seat in seats:
            column = (seat[0] - viewer) % n
            for route in seat[6]:
                out[cell(route, column)] = 1.0
        for routes in others:
            for route in routes:
                out[cell(route, n)] = 1.0
        _put(out, layout.at_ending, layout.ending_row(ending))
        _put(out, layout.at_variants, self._variant_row(variant_values))
        assert len(out) == self.size  # every row as long as its part
        return out

    def _known_by_card(self, known: Mapping[str, int]) -> list[int]:
        """A view's known cards (by name) card by card."""
        counts = [0] * self._layout.kinds
        index = self._layout.index
        for name, count in known.items():
            counts[index[name]] = count
        return counts

    def _variant_row(self, variant_values: Mapping[str, Any]) -> list[float]:
        """``variant:KEY``: the variant state the view shows, as the first view's
        shape fixed it (:class:`ObservationError` for another shape); a row at
        ``at_variants``."""
        row: list[float] = []
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
                row.append(float(value) / scale)
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
                row += [float(v) / scale for v in value]
        return row


class ObservationTracker:
    """Seat ``seat``'s observation vector of a :class:`~ttr_core.Playout`'s
    position, kept up to date: what the adapters observe every step. Made by
    :meth:`ObservationEncoder.tracker`.

    :meth:`update` reads the playout's working state, without building a
    frozen state (unless a variant shows state through its view hook, or
    declares an owner that is no seat: those are asked of a snapshot, as the
    view asks them). It compares each part's inputs with those it last wrote
    the part from, and writes again only the numbers of the parts that
    changed: a card drawn rewrites the hand, the display and two seats'
    counts, not the tickets or the routes; a claim writes the claimed
    route's cell, not every route's. After it:

    - ``values`` is ``encoder.encode_state(play.snapshot(), seat)``, number
      for number (``tests/test_observation_tracker.py`` checks it on every
      seat of thousands of positions, through jumps between games);
    - ``vector`` holds the same numbers as 32-bit floats, an
      ``array.array('f')`` changed in place (``numpy.frombuffer(tracker.vector,
      numpy.float32)`` views it without a copy).

    Both are read only: the tracker writes a number only where its inputs
    changed, so a number changed by its caller stays wrong. Copy them to
    change them (the adapters hand out copies).

    A tracker follows any playout of its configuration, one position or one
    game after another: it compares the position's content, not its
    history. A playout of another configuration raises
    :class:`ObservationError` as :meth:`ObservationEncoder.encode_state`
    does. Like a playout it is mutable: one per thread.
    """

    __slots__ = (
        "_columns",
        "_display",
        "_ending",
        "_layout",
        "_others",
        "_pending",
        "_piles",
        "_rules",
        "_seats",
        "_sets",
        "_ticket_discard",
        "_tickets",
        "_variants",
        "encoder",
        "seat",
        "values",
        "vector",
    )

    def __init__(self, encoder: ObservationEncoder, seat: int) -> None:
        if not isinstance(encoder, ObservationEncoder):
            raise ArgumentError(
                f"encoder must be a ttr_core.observation.ObservationEncoder, not {what(encoder)}"
            )
        players = encoder.players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            raise ArgumentError(f"seat must be a seat from 0 to {players - 1}, not {show(seat)}")
        self.encoder = encoder
        self.seat = seat
        self._layout = encoder._layout
        #: The vector's numbers (floats, as ``encode_state`` gives them).
        self.values: list[float] = [0.0] * encoder.size
        #: The same numbers as 32-bit floats, changed in place.
        self.vector = array.array("f", self.values)
        # What each part was last written from: see _forget.
        self._rules: object
        self._pending: object
        self._tickets: object
        self._display: object
        self._piles: object
        self._ticket_discard: object
        self._seats: list[object]
        self._ending: object
        self._variants: object
        self._sets: list[list[int]]
        self._columns: list[tuple[int, ...]]
        self._others: frozenset[int]
        self._forget()

    def _forget(self) -> None:
        """Forget what every part was written from, so the next update writes
        every part (a sentinel no input equals), and zero the numbers."""
        unset = _UNSET
        self._rules = self._pending = self._tickets = self._display = unset
        self._piles = self._ticket_discard = self._ending = self._variants = unset
        self._seats = [unset] * self.encoder.players
        #: The ones of the header, tickets and ticket-discard parts.
        self._sets = [[], [], []]
        #: The routes written in each seat's owner column, and in ``other``.
        self._columns = [()] * self.encoder.players
        self._others = frozenset()
        self.values[:] = [0.0] * len(self.values)
        self.vector[:] = array.array("f", self.values)

    def update(self, play: Playout) -> bool:
        """Bring ``values`` and ``vector`` up to ``play``'s position; whether
        any number changed."""
        if not isinstance(play, Playout):
            raise ArgumentError(f"play must be a ttr_core.Playout, not {what(play)}")
        try:
            return self._update(play)
        except BaseException:
            self._forget()  # a part may be half written: write every part next time
            raise

    def _update(self, play: Playout) -> bool:
        work = play._reading()  # read only: the kernel's working state
        rules = work.rules
        if rules is not self._rules:
            self._accept(play)
        layout = self._layout
        viewer = self.seat
        changed = False

        pending = work.pending  # a frozen Pending: the same object, the same decision
        over = work.termination is not None
        key: Any = (pending, over)
        # Each part's inputs are noted once the part is written (a part whose
        # writing raised is written again at the next update).
        if key != self._pending:
            kind = None if pending is None else str(pending.kind)
            current = None if pending is None else pending.player
            changed |= self._ones(0, layout.header_ones(viewer, current, kind, over))
            self._pending = key
        part = work.seats[viewer]
        assert part is not None  # a playout keeps every seat loaded (Work.keep_masks)
        held = part.tickets
        key = (held, pending)
        if key != self._tickets:
            offered, min_keep = offer_seen(work, viewer)
            size = 0 if pending is None else len(pending.offered)
            changed |= self._ones(1, layout.ticket_ones(held, offered))
            changed |= self._row(layout.at_keep, layout.keep_row(min_keep, size))
            self._tickets = key
        display = tuple(work.display)
        if display != self._display:
            shown = [card for card in display if card is not None]
            changed |= self._row(layout.at_display, layout.display_row(shown))
            self._display = display
        ticket_discard = tuple(work.ticket_discard)
        piles = (len(work.deck), sum(work.discard), len(work.ticket_deck), len(ticket_discard))
        if piles != self._piles:
            changed |= self._row(layout.at_piles, layout.piles_row(piles))
            self._piles = piles
        if ticket_discard != self._ticket_discard:
            changed |= self._ones(2, layout.ticket_discard_ones(ticket_discard))
            self._ticket_discard = ticket_discard

        changed |= self._seat_parts(work)
        if rules.non_seat_owners:
            changed |= self._other_owners(play)
        key = (work.final_turns, work.turn, work.passes)
        if key != self._ending:
            changed |= self._row(layout.at_ending, layout.ending_row(key))
            self._ending = key
        if self.encoder._variant_slots:
            values = (
                calls.run_player_view(rules, play.snapshot(), viewer) if rules.player_view else {}
            )
            if values != self._variants:
                changed |= self._row(layout.at_variants, self.encoder._variant_row(values))
                self._variants = dict(values)  # a copy: a hook may hand out its own dict
        return changed

    # -- the parts ------------------------------------------------------------

    def _row(self, at: int, row: list[float]) -> bool:
        """Write a row part from ``at`` on; whether a number changed."""
        end = at + len(row)
        values = self.values
        if values[at:end] == row:
            return False
        values[at:end] = row
        self.vector[at:end] = array.array("f", row)
        return True

    def _ones(self, part: int, ones: list[int]) -> bool:
        """Write a ones part (``part``: its index in ``_sets``); whether a number changed."""
        sets = self._sets
        before = sets[part]
        if ones == before:
            return False
        values = self.values
        vector = self.vector
        for at in before:
            values[at] = vector[at] = 0.0
        for at in ones:
            values[at] = vector[at] = 1.0
        sets[part] = ones
        return True

    def _seat_parts(self, work: Any) -> bool:
        """Each seat's counts and its owner column: only the rows of seats whose
        counts changed (the viewer's hand too), and the cells of routes that
        changed hands."""
        layout = self._layout
        n = layout.players
        viewer = self.seat
        written = self._seats
        columns = self._columns
        changed = False
        for number, part in enumerate(work.seats):
            assert part is not None  # a playout keeps every seat loaded (Work.keep_masks)
            known = part.known
            key = (
                tuple(part.counts),
                part.tickets,
                part.cars,
                part.score,
                tuple(known) if known else (),
            )
            routes = part.routes
            column = (number - viewer) % n
            if routes != columns[number]:
                changed |= self._cells(column, set(columns[number]), set(routes))
                columns[number] = routes
            if key == written[number]:
                continue
            counts, tickets, cars, score, known = key
            if number == viewer:
                changed |= self._row(layout.at_hand, layout.hand_row(counts))
            # The view's rule; no card known (all 0, the usual case): nothing shown.
            shown = known_shown(known, counts) if any(known) else ()
            row = layout.seat_row(cars, sum(counts), len(tickets), score, shown)
            changed |= self._row(layout.at_seats + column * layout.per_seat, row)
            written[number] = key
        return changed

    def _other_owners(self, play: Playout) -> bool:
        """The ``other`` owner column: the routes of owners that are no seat
        (as the view asks the variants for them, of a snapshot)."""
        n = self._layout.players
        others = frozenset(r for o in non_seat_owners(play.snapshot()) for r in o.routes)
        if others == self._others:
            return False
        self._cells(n, self._others, others)
        self._others = others
        return True

    def _cells(self, column: int, before: AbstractSet[int], now: AbstractSet[int]) -> bool:
        """Owner column ``column``: the cells of routes no longer there cleared,
        of routes new there set."""
        cell = self._layout.cell
        values = self.values
        vector = self.vector
        for route in before - now:
            at = cell(route, column)
            values[at] = vector[at] = 0.0
        for route in now - before:
            at = cell(route, column)
            values[at] = vector[at] = 1.0
        return before != now

    def _accept(self, play: Playout) -> None:
        """Check a playout of other rules against the encoder's configuration."""
        work = play._reading()
        if not self.encoder._plays(work.board, len(work.players), work.rules):
            # The view's check gives the message.
            self.encoder.encode(player_view(play.snapshot(), self.seat))
        self._rules = work.rules


#: What no part's inputs equal: the part is written at the next update.
_UNSET = object()


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
        raise ArgumentError(f"variants must be a sequence of variant names, not {show(variants)}")
    check_player_count(board, players)
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
    ticket_names = [
        f"{t.id}:{t.a}-{'/'.join(end for end, _p in t.destinations)}" for t in board.tickets
    ]
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
