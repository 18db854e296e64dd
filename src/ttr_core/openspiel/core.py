"""A game as OpenSpiel plays it, apart from OpenSpiel's classes: the seed's
bytes drawn by chance first, then the game played in place on a
:class:`~ttr_core.Playout`, with the events each seat saw.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ttr_core.data.messages import from_json, to_json
from ttr_core.errors import ArgumentError, IllegalAction, Reason
from ttr_core.mapfiles.finding import load_map
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import Board
from ttr_core.model.state import GameState
from ttr_core.observation import ObservationEncoder
from ttr_core.openspiel.deps import np, npt, pyspiel
from ttr_core.rules.action_ids import (
    ActionSpace,
    ids_of_listed,
    legal_action_ids,
    rules_space,
)
from ttr_core.rules.engine import legal_actions
from ttr_core.search.playout import Playout

#: The shuffle is a seed of this many bytes, one chance node per byte.
SEED_BYTES = 16


#: Outcomes of each chance node: the values of a byte, equally likely.
CHANCE_OUTCOMES = 256


def _max_game_length(board: Board, players: int) -> int:
    """An upper bound on the number of actions in a game.

    Every card drawn leaves the supply, which only claims refill (with the
    cards paid, at most a seat's cars each); every ticket draw keeps a
    ticket; every claim places cars; and at most ``players - 1`` passes in a
    row do not end the game. The bound is doubled for what variants may add.
    """
    rules = board.rules
    cars = players * rules.cars_per_player
    tickets = len(board.tickets)
    draws = board.total_cards + cars
    ticket_actions = 2 * tickets + players
    claims = min(len(board.routes), cars)
    moves = draws + ticket_actions + claims
    return 2 * (moves + players * (moves + 1))


#: One action as played: (seat, action id, kind, public fact, private fact).
#: kind: "blind", "face_up", "tickets", "keep", "claim", "pass". Public:
#: the card taken face up, the number of tickets offered or kept, else None.
#: Private (only the seat itself sees it; None where masked): the card drawn
#: blind, the tickets offered, the tickets kept. ``display`` is the display
#: after the action when it changed, else None.
_Event = tuple[int, int, str, Any, Any, "tuple[str | None, ...] | None"]


class _Core:
    """The contents of an OpenSpiel state: the game, the record of play and the
    starting hands, and what was worked out from the current position.

    The game is played in place by a :class:`~ttr_core.Playout` (``play``);
    until its first action a dealt game is only its frozen state
    (``frozen``), so the initial states of a fixed deal share one state and
    its caches and build no playout (OpenSpiel makes an initial state for
    every tensor's size). ``None`` in both while chance is still drawing the
    seed bytes. A clone (``__deepcopy__``, what ``State.clone()`` runs)
    clones the playout and shares the caches until either plays: an action
    replaces them, and a vector worked out meanwhile is added to the shared
    dict (right for both, which are at the same position). Pickled
    (OpenSpiel's serialization) through
    :func:`ttr_core.to_json`.
    """

    __slots__ = (
        "_events",
        "_raw",
        "frozen",
        "ids",
        "map_param",
        "native",
        "play",
        "seed_bytes",
        "seen",
        "sorted_ids",
        "space",
        "start_hands",
        "to_move",
    )

    def __init__(
        self,
        map_param: str,
        state: GameState | None,
        seed_bytes: tuple[int, ...] = (),
        events: Iterable[_Event] = (),
        start_hands: tuple[tuple[int, ...] | None, ...] = (),
    ) -> None:
        self.map_param = map_param
        self.frozen = state
        self.play: Playout | None = None
        #: The playout's compiled game, when the compiled engine plays it.
        self.native: Any = None
        self.seed_bytes = seed_bytes
        self._events: list[_Event] = list(events)
        #: The compiled engine's records of the actions after ``_events``, made
        #: into events only when read (:attr:`events`): a step builds none.
        self._raw: list[tuple[int, Any]] = []
        self.start_hands = start_hands
        # Worked out at most once per position, from the position alone: the
        # legal action ids in the engine's order and sorted, and each seat's
        # observation vector.
        self.ids: tuple[int, ...] | None = None
        self.sorted_ids: list[int] | None = None
        #: The game's action space (looked up at the first listing, then kept).
        self.space: ActionSpace | None = None
        self.seen: dict[int, npt.NDArray[np.float32]] = {}
        #: OpenSpiel's current player: a seat, or chance before the deal, or terminal.
        self.to_move = _to_move(state)

    @property
    def events(self) -> list[_Event]:
        """The record of play: one event per action (the caller must not change it)."""
        raw = self._raw
        if raw:
            native = self.native
            assert native is not None
            names = native.base.board.card_names
            self._events += [_native_event(names, aid, record) for aid, record in raw]
            self._raw = []
        return self._events

    @property
    def dealt(self) -> bool:
        return self.play is not None or self.frozen is not None

    def snapshot(self) -> GameState:
        """The frozen state reached (the playout's snapshot: no new object while
        nothing changed). :class:`ArgumentError` while chance is shuffling."""
        play = self.play
        if play is not None:
            return play.snapshot()
        state = self.frozen
        if state is None:
            raise ArgumentError("the cards are not dealt yet: chance is still shuffling")
        return state

    def playout(self) -> Playout:
        """The playout, made from the frozen state at the first action."""
        play = self.play
        if play is None:
            play = self.play = Playout(self.snapshot())
            self.native = play._compiled()
            self.frozen = None
        return play

    def is_over(self) -> bool:
        native = self.native
        if native is not None:
            return native.game.over  # type: ignore[no-any-return]
        play = self.play
        if play is not None:
            return play.is_over()
        state = self.frozen
        return state is not None and state.is_over

    def legal_ids(self) -> tuple[int, ...]:
        """The ids of the legal actions, in the engine's order, worked out once."""
        ids = self.ids
        if ids is None:
            play = self.play
            if play is None:
                ids = legal_action_ids(self.snapshot())
            else:
                native = self.native
                if native is not None:
                    ids = native.legal_ids()  # listed by the compiled engine, as ids
                else:
                    space = self.space
                    if space is None:
                        space = self.space = rules_space(play._work.rules)
                    ids = ids_of_listed(space, play.legal_actions(), play.snapshot)
            self.ids = ids
        return ids

    def legal_sorted(self) -> list[int]:
        """The legal ids, sorted (OpenSpiel's order); the caller must not change the list."""
        ids = self.sorted_ids
        if ids is None:
            ids = self.sorted_ids = sorted(self.legal_ids())
        return ids

    def observation(self, encoder: ObservationEncoder, seat: int) -> npt.NDArray[np.float32]:
        """Seat ``seat``'s observation vector of the (dealt) state, worked out once.

        Never changed once stored: the observer copies it into its tensor.
        """
        vector = self.seen.get(seat)
        if vector is None:
            play = self.play
            if play is not None and play.engine == "native":
                # Written by the compiled engine from its own state.
                vector = encoder.observe(play, seat, np.empty(encoder.size, dtype=np.float32))
            else:
                # encode_state is encode(player_view(state, seat)) without building the view.
                vector = np.asarray(encoder.encode_state(self.snapshot(), seat), dtype=np.float32)
            self.seen[seat] = vector
        return vector

    def apply(self, aid: int) -> None:
        """Play action id ``aid`` (a legal one, else :class:`IllegalAction` and
        nothing changes) and record it."""
        native = self.native
        if native is None and self.play is None and self.frozen is not None:
            self.playout()
            native = self.native
        if native is not None:
            # The compiled engine checks, carries out and records it in one call;
            # the record becomes an event when the events are read.
            try:
                record = native.record(aid)
            except ValueError:  # not legal here: refused before anything changed
                state = self.snapshot()
                raise IllegalAction(
                    Reason.UNKNOWN_ACTION,
                    f"action id {aid} is not legal here (legal: {sorted(_legal_by_id(state))})",
                ) from None
            self._raw.append((aid, record))
            self.ids = self.sorted_ids = None
            self.seen = {}
            seat = record[4]
            self.to_move = _TERMINAL if seat < 0 else seat
            return
        ids = self.legal_ids()
        try:
            index = ids.index(aid)
        except ValueError:
            state = self.snapshot()
            raise IllegalAction(
                Reason.UNKNOWN_ACTION,
                f"action id {aid} is not legal here (legal: {sorted(_legal_by_id(state))})",
            ) from None
        play = self.playout()
        # The engine's own action object at that id's place in the legal list.
        event = _play(play, aid, play.legal_actions()[index])
        self._events.append(event)
        self.ids = self.sorted_ids = None
        self.seen = {}
        seat = play.current_player
        self.to_move = _TERMINAL if seat is None else seat

    def fork(self) -> _Core:
        """An independent copy: the playout cloned, the record copied, the caches shared."""
        twin = _Core.__new__(_Core)
        twin.map_param = self.map_param
        twin.frozen = self.frozen
        play = self.play
        twin.play = None if play is None else play.clone()
        twin.native = None if twin.play is None else twin.play._compiled()
        twin.seed_bytes = self.seed_bytes
        twin._events = list(self._events)
        twin._raw = list(self._raw)
        twin.start_hands = self.start_hands
        twin.ids = self.ids
        twin.sorted_ids = self.sorted_ids
        twin.seen = self.seen
        twin.to_move = self.to_move
        twin.space = self.space
        return twin

    @classmethod
    def dealt_from(
        cls, map_param: str, state: GameState, seed_bytes: tuple[int, ...] = ()
    ) -> _Core:
        return cls(map_param, state, seed_bytes, (), tuple(p.hand.counts for p in state.players))

    @classmethod
    def dealt_playout(
        cls, map_param: str, play: Playout, seed_bytes: tuple[int, ...] = ()
    ) -> _Core:
        """The core of a new game already in a playout (``Playout.deal_like``:
        on the compiled engine, no frozen state is made for it)."""
        native = play._compiled()
        if native is None:
            return cls.dealt_from(map_param, play.snapshot(), seed_bytes)
        core = cls(map_param, None, seed_bytes)
        core.play = play
        core.native = native
        hands = native.starting_hands()
        core.start_hands = hands
        seat = play.current_player
        core.to_move = _TERMINAL if seat is None else seat
        return core

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self.fork()

    def __copy__(self) -> _Core:
        return self.fork()

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        text = None if not self.dealt else to_json(self.snapshot())
        return (
            _restore,
            (text, self.map_param, self.seed_bytes, tuple(self.events), self.start_hands),
        )


def _restore(
    text: str | None,
    map_param: str,
    seed_bytes: tuple[int, ...],
    events: tuple[_Event, ...],
    start_hands: tuple[tuple[int, ...] | None, ...],
) -> _Core:
    state = None if text is None else from_json(text, GameState, board=load_map(map_param))
    return _Core(map_param, state, tuple(seed_bytes), tuple(events), tuple(start_hands))


_CHANCE = [(byte, 1.0 / CHANCE_OUTCOMES) for byte in range(CHANCE_OUTCOMES)]


_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


_CHANCE_PLAYER = int(pyspiel.PlayerId.CHANCE)


def _to_move(state: GameState | None) -> int:
    """OpenSpiel's current player of ``state`` (``None``: chance still shuffling)."""
    if state is None:
        return int(pyspiel.PlayerId.CHANCE)
    seat = state.current_player
    return _TERMINAL if seat is None else seat


def _legal_by_id(state: GameState) -> dict[int, Action]:
    return dict(zip(legal_action_ids(state), legal_actions(state), strict=True))


def _mask(event: _Event, viewer: int) -> _Event:
    seat, aid, kind, public, _, display = event
    return event if seat == viewer else (seat, aid, kind, public, None, display)


def _native_event(names: tuple[str, ...], aid: int, record: tuple[Any, ...]) -> _Event:
    """The event of action id ``aid`` from the compiled engine's record of it
    (``_engine.Game.record``: the seat, the kind, what was drawn or offered
    or kept, the display after when it changed): what :func:`_play` makes on
    the Python kernel."""
    seat, kind, fact, after, _ = record
    changed = None if after is None else tuple(None if c < 0 else names[c] for c in after)
    if kind == 0:
        return (seat, aid, "blind", None, None if fact < 0 else names[fact], changed)
    if kind == 1:
        return (seat, aid, "face_up", None if fact < 0 else names[fact], None, changed)
    if kind == 2:
        return (seat, aid, "tickets", len(fact), fact, changed)
    if kind == 3:
        return (seat, aid, "pass", None, None, changed)
    if kind == 4:
        return (seat, aid, "claim", None, None, changed)
    if kind == 6:  # a variant action: told only to its seat (_event_text)
        return (seat, aid, "variant", None, None, changed)
    offered, kept = fact
    return (seat, aid, "keep", len(kept), (offered, kept), changed)


def _play(play: Playout, aid: int, action: Action) -> _Event:
    """Apply ``action`` (one of the playout's listed objects) and return its record.

    What the record needs from before and after the action is read from the
    playout's working state (the display, the seat's hand, the offer pending),
    so no frozen state is made for it.
    """
    work = play._work  # read only: the kernel's working state
    seat = action.player
    names = work.board.card_names
    kind = type(action)
    display = tuple(work.display)
    public: Any = None
    private: Any = None
    if kind is DrawBlind:
        old = tuple(work.counts(seat))
    elif kind is DrawFaceUp:
        assert isinstance(action, DrawFaceUp)
        card = display[action.slot]
        public = None if card is None else names[card]
    elif kind is KeepTickets:
        assert isinstance(action, KeepTickets)
        pending = work.pending
        offered = pending.offered if pending is not None else ()
        kept = tuple(sorted(action.tickets))
        public, private = len(kept), (tuple(offered), kept)
    play.apply(action)
    work = play._work
    after = work.display
    changed = (
        None if tuple(after) == display else tuple(None if c is None else names[c] for c in after)
    )
    if kind is DrawBlind:
        new = work.counts(seat)
        drawn = [names[c] for c, (a, b) in enumerate(zip(old, new, strict=True)) if b > a]
        return (seat, aid, "blind", None, drawn[0] if drawn else None, changed)
    if kind is DrawFaceUp:
        return (seat, aid, "face_up", public, None, changed)
    if kind is DrawTickets:
        pending = work.pending
        offered = pending.offered if pending is not None and pending.player == seat else ()
        return (seat, aid, "tickets", len(offered), tuple(offered), changed)
    if kind is KeepTickets:
        return (seat, aid, "keep", public, private, changed)
    if kind is ClaimRoute:
        return (seat, aid, "claim", None, None, changed)
    if kind is Pass:
        return (seat, aid, "pass", None, None, changed)
    # A variant action: what it was is told only to its seat (_event_text).
    return (seat, aid, "variant", None, None, changed)
