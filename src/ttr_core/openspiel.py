"""ttr-core as an OpenSpiel game: ``python_ttr``.

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import ttr_core.openspiel  # registers "python_ttr"

    game = pyspiel.load_game("python_ttr", {"map": "newyork", "players": 2})
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

``import ttr_core`` never imports ``pyspiel``; this module needs the extra
``pip install '.[openspiel]'`` in a clone of ttr-core. ``docs/openspiel.md`` documents the
game: its parameters, why chance is explicit but only at the start (16
chance nodes draw the engine's 128-bit seed, a byte each), the action ids,
the tensors, the utilities and the limits.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

try:
    import numpy as np  # type: ignore[import-not-found, unused-ignore]
    import numpy.typing as npt  # type: ignore[import-not-found, unused-ignore]
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "ttr_core.openspiel needs OpenSpiel and numpy: pip install '.[openspiel]' in a clone "
        "of ttr-core (pip install 'ttr-core[openspiel]' once it is on the package index) "
        f"({exc})"
    ) from exc

from .action_ids import ActionSpace, check_all_numbered, legal_action_ids, rules_space
from .actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from .board import Board
from .determinize import determinize
from .engine import apply, legal_actions, new_game
from .errors import ArgumentError, IllegalAction, Reason, UnsupportedVariantError
from .maploader import load_map
from .observation import ObservationEncoder, observation_encoder
from .plugin_manager import GameRules, game_rules, resolve_variants
from .scoring import FinalScores, final_scores, utilities
from .serialize import from_json, to_json
from .state import GameState
from .views import PlayerView, player_view

__all__ = [
    "GAME_TYPE",
    "SHORT_NAME",
    "TtrGame",
    "TtrState",
    "UnsupportedVariantError",
    "history_features",
]

#: The name the game is registered under.
SHORT_NAME = "python_ttr"

#: Parameters and their defaults. ``variants``: ``"default"`` for the map's
#: own, ``"none"`` (or ``""``) for none, else names separated by ``+`` (or
#: commas, which OpenSpiel's game strings cannot hold).
#: ``seed``: ``-1`` to let chance shuffle (the first :data:`SEED_BYTES`
#: moves of every game are chance nodes), else the engine seed of one fixed
#: deal, already made in the initial state (no chance node). ``options``: the
#: variant options as a JSON object ``{"variant": {"option": value}}``.
PARAMETERS: Mapping[str, Any] = {
    "map": "newyork",
    "players": 2,
    "seed": -1,
    "variants": "default",
    "options": "{}",
}

#: The shuffle is a seed of this many bytes, one chance node per byte.
SEED_BYTES = 16
#: Outcomes of each chance node: the values of a byte, equally likely.
CHANCE_OUTCOMES = 256

#: Player counts the built-in maps allow (a map's own range is checked on load).
_MIN_PLAYERS, _MAX_PLAYERS = 2, 5

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Ticket to Ride (ttr-core)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=_MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(PARAMETERS),
)


# ---------------------------------------------------------------------------
# The game
# ---------------------------------------------------------------------------


def _parse_variants(text: object) -> tuple[str, ...] | None:
    if not isinstance(text, str):
        raise ArgumentError(f"parameter 'variants' must be a string, not {text!r}")
    spec = text.strip()
    if spec == "default":
        return None
    if spec in ("", "none"):
        return ()
    # '+' too: OpenSpiel's game strings ("python_ttr(variants=tolls+neutral)") split
    # parameters at commas, so a game with two variants is saved and loaded with '+'.
    names = tuple(name.strip() for name in spec.replace("+", ",").split(","))
    if any(not name for name in names):
        raise ArgumentError(
            f"parameter 'variants' is {text!r}: expected 'default', 'none' or variant names "
            "separated by '+' (or commas)"
        )
    return names


def _parse_options(text: object) -> dict[str, dict[str, Any]]:
    if not isinstance(text, str):
        raise ArgumentError(f"parameter 'options' must be a JSON string, not {text!r}")
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise ArgumentError(f"parameter 'options' is not JSON: {exc}") from None
    if not isinstance(options, dict) or not all(isinstance(v, dict) for v in options.values()):
        raise ArgumentError(
            f"parameter 'options' must be a JSON object of objects "
            f'({{"variant": {{"option": value}}}}), not {text!r}'
        )
    return options


def _check_int(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ArgumentError(f"parameter {name!r} must be an int, not {value!r}")
    return value


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


class TtrGame(pyspiel.Game):  # type: ignore[misc]
    """Ticket to Ride as an OpenSpiel game (see :mod:`ttr_core.openspiel`)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        given = dict(PARAMETERS)
        given.update(params or {})
        unknown = sorted(set(given) - set(PARAMETERS))
        if unknown:
            raise ArgumentError(
                f"unknown parameters {unknown}: {SHORT_NAME} takes {', '.join(PARAMETERS)}"
            )
        map_name = given["map"]
        if not isinstance(map_name, str) or not map_name:
            raise ArgumentError(f"parameter 'map' must be a map name or path, not {map_name!r}")
        players = _check_int("players", given["players"])
        seed = _check_int("seed", given["seed"])
        if seed < -1:
            raise ArgumentError(f"parameter 'seed' must be -1 (a fresh deal) or >= 0, not {seed}")
        board = load_map(map_name)
        names = resolve_variants(board, _parse_variants(given["variants"]))
        options = _parse_options(given["options"])
        # Check the whole configuration as new_game does (player count, options,
        # the variants' own checks) before anything is built from it.
        new_game(board, players, seed=0, variants=names, options=options)
        rules = game_rules(board, players, names, options)
        # Variant actions have ids only if their variants declare them (ttr_action_space).
        check_all_numbered(rules, f"the OpenSpiel game {SHORT_NAME}")
        space = rules_space(rules)
        self.board: Board = board
        self.players: int = players
        self.rules: GameRules = rules
        self.space: ActionSpace = space
        self.encoder: ObservationEncoder = observation_encoder(board, players, names, options)
        self.map_param: str = map_name
        self.seed: int = seed
        self._options = options
        self._initial: _Core | None = None
        game_type = pyspiel.GameType(
            short_name=SHORT_NAME,
            long_name=GAME_TYPE.long_name,
            dynamics=GAME_TYPE.dynamics,
            chance_mode=GAME_TYPE.chance_mode,
            information=GAME_TYPE.information,
            utility=GAME_TYPE.utility,
            reward_model=GAME_TYPE.reward_model,
            max_num_players=board.rules.max_players,
            min_num_players=board.rules.min_players,
            provides_information_state_string=True,
            provides_information_state_tensor=True,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification=dict(PARAMETERS),
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=space.size,
            max_chance_outcomes=CHANCE_OUTCOMES,
            num_players=players,
            min_utility=-1.0 / (players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=_max_game_length(board, players),
        )
        super().__init__(game_type, info, given)

    def _new_ttr_state(self, seed: int) -> GameState:
        return new_game(
            self.board, self.players, seed=seed, variants=self.rules.variants, options=self._options
        )

    def _dealt_core(self) -> _Core:
        """The core of the fixed deal (``seed >= 0``), made once and shared.

        OpenSpiel makes a new initial state each time it is asked for the size
        of a tensor (every ``observation_tensor()`` call), and a core never
        changes, so every initial state can share one. Two threads making it
        at once make equal ones; either is kept.
        """
        core = self._initial
        if core is None:
            core = self._initial = _Core.dealt(self.map_param, self._new_ttr_state(self.seed))
        return core

    def max_chance_nodes_in_history(self) -> int:
        return 0 if self.seed >= 0 else SEED_BYTES

    def new_initial_state(self) -> TtrState:
        """A new game: waiting for chance to shuffle, or dealt from ``seed`` if given."""
        return TtrState(self)

    def new_state_from(self, state: GameState) -> TtrState:
        """An OpenSpiel state playing on from ``state`` (a game of this configuration).

        The state has no OpenSpiel history (``history()`` is empty) and no
        record of the actions that led to ``state``: information states show
        only what was played from here on. Raises :class:`ArgumentError` for
        a state of another configuration.
        """
        if not isinstance(state, GameState):
            raise ArgumentError(f"state must be a ttr_core.GameState, not {type(state).__name__}")
        if state.rules != self.rules or state.board is not self.board:
            raise ArgumentError(
                f"state is a game of {state.board.id!r} with {state.num_players} players and "
                f"variants {list(state.rules.variants)}, not this game's configuration"
            )
        opened = TtrState(self)
        opened._core = _Core.dealt(self.map_param, state)
        return opened

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # By parameters: OpenSpiel's own pickling rebuilds the C++ game only.
        return (_load_game, (dict(self.get_parameters()),))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> _Observer:
        """The observer OpenSpiel asks for: the observation (default) or, for
        ``perfect_recall``, the information state. Only a single seat's view
        with its public information is supported."""
        if params:
            raise ArgumentError(f"{SHORT_NAME} observers take no parameters, not {dict(params)}")
        perfect_recall = False
        if iig_obs_type is not None:
            if (
                iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info
            ):
                raise ArgumentError(
                    f"{SHORT_NAME} observes a seat's view (public_info=True, "
                    f"private_info=SINGLE_PLAYER), not {iig_obs_type}"
                )
            perfect_recall = bool(iig_obs_type.perfect_recall)
        return _Observer(self, perfect_recall)


# ---------------------------------------------------------------------------
# The state
# ---------------------------------------------------------------------------

#: One action as played: (seat, action id, kind, public fact, private fact).
#: kind: "blind", "face_up", "tickets", "keep", "claim", "pass". Public:
#: the card taken face up, the number of tickets offered or kept, else None.
#: Private (only the seat itself sees it; None where masked): the card drawn
#: blind, the tickets offered, the tickets kept. ``display`` is the display
#: after the action when it changed, else None.
_Event = tuple[int, int, str, Any, Any, "tuple[str | None, ...] | None"]


class _Core:
    """The immutable contents of an OpenSpiel state: the engine's state (``None``
    while chance is still drawing the seed bytes), the record of play and the
    starting hands.

    Never changed: an action makes a new one, so a clone shares it
    (``__deepcopy__``). Pickled (OpenSpiel's serialization) through
    :func:`ttr_core.to_json`.
    """

    __slots__ = ("events", "legal", "map_param", "seed_bytes", "seen", "start_hands", "state")

    def __init__(
        self,
        map_param: str,
        state: GameState | None,
        seed_bytes: tuple[int, ...] = (),
        events: tuple[_Event, ...] = (),
        start_hands: tuple[tuple[int, ...] | None, ...] = (),
    ) -> None:
        self.map_param = map_param
        self.state = state
        self.seed_bytes = seed_bytes
        self.events = events
        self.start_hands = start_hands
        # Worked out at most once per core, from the state alone (so two threads
        # working one out at once store the same value): the legal action ids in
        # the engine's order, and each seat's observation vector.
        self.legal: tuple[int, ...] | None = None
        self.seen: dict[int, npt.NDArray[np.float32]] = {}

    def legal_ids(self) -> tuple[int, ...]:
        """``legal_action_ids`` of the (dealt) state, worked out once."""
        legal = self.legal
        if legal is None:
            legal = self.legal = legal_action_ids(_dealt(self))
        return legal

    def observation(self, encoder: ObservationEncoder, seat: int) -> npt.NDArray[np.float32]:
        """Seat ``seat``'s observation vector of the (dealt) state, worked out once.

        Never changed once stored: the observer copies it into its tensor.
        """
        vector = self.seen.get(seat)
        if vector is None:
            # encode_state is encode(player_view(state, seat)) without building the view.
            vector = np.asarray(encoder.encode_state(_dealt(self), seat), dtype=np.float32)
            self.seen[seat] = vector
        return vector

    @classmethod
    def dealt(cls, map_param: str, state: GameState, seed_bytes: tuple[int, ...] = ()) -> _Core:
        return cls(map_param, state, seed_bytes, (), tuple(p.hand.counts for p in state.players))

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        return self

    def __copy__(self) -> _Core:
        return self

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        text = None if self.state is None else to_json(self.state)
        return (
            _restore,
            (text, self.map_param, self.seed_bytes, self.events, self.start_hands),
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


def _load_game(params: Mapping[str, Any]) -> TtrGame:
    game: TtrGame = pyspiel.load_game(SHORT_NAME, dict(params))
    return game


def _load_state(params: Mapping[str, Any], text: str) -> TtrState:
    state: TtrState = _load_game(params).deserialize_state(text)
    return state


class TtrState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state wrapping an immutable :class:`ttr_core.GameState`."""

    def __init__(self, game: TtrGame) -> None:
        super().__init__(game)
        if game.seed >= 0:
            self._core = game._dealt_core()
        else:
            self._core = _Core(game.map_param, None)

    # -- what the engine holds ------------------------------------------------

    @property
    def ttr_state(self) -> GameState:
        """The engine's state (a :class:`ttr_core.GameState`; hidden information
        included). :class:`ArgumentError` while chance is still shuffling."""
        return _dealt(self._core)

    def view(self, player: int) -> PlayerView:
        """What seat ``player`` sees (:func:`ttr_core.player_view`)."""
        return player_view(_dealt(self._core), player)

    def final_scores(self) -> FinalScores:
        """The score sheets of the finished game (:func:`ttr_core.final_scores`)."""
        return final_scores(_dealt(self._core))

    # -- OpenSpiel API ----------------------------------------------------------

    def current_player(self) -> int:
        state = self._core.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        seat = state.current_player
        assert seat is not None
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        state = self._core.state
        if state is None or state.is_over or player != state.current_player:
            return []
        return sorted(self._core.legal_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._core.state is not None:
            return []
        return _CHANCE

    def _apply_action(self, action: int) -> None:
        core = self._core
        state = core.state
        if state is None:
            byte = int(action)
            if not 0 <= byte < CHANCE_OUTCOMES:
                raise IllegalAction(
                    Reason.UNKNOWN_ACTION, f"chance outcome {action} is not a byte (0 to 255)"
                )
            seed_bytes = (*core.seed_bytes, byte)
            if len(seed_bytes) < SEED_BYTES:
                self._core = _Core(core.map_param, None, seed_bytes)
            else:
                game = self.get_game()
                dealt = game._new_ttr_state(int.from_bytes(bytes(seed_bytes), "big"))
                self._core = _Core.dealt(core.map_param, dealt, seed_bytes)
            return
        if state.is_over:
            raise IllegalAction(Reason.GAME_OVER, "the game is over: no action can be applied")
        legal = core.legal_ids()
        aid = int(action)
        # The engine's own action object at that id's place in the legal list.
        chosen = legal_actions(state)[legal.index(aid)] if aid in legal else None
        if chosen is None:
            raise IllegalAction(
                Reason.UNKNOWN_ACTION,
                f"action id {action} is not legal here (legal: {sorted(_legal_by_id(state))})",
            )
        after = apply(state, chosen)
        event = _event(state, int(action), chosen, after)
        self._core = _Core(
            core.map_param, after, core.seed_bytes, (*core.events, event), core.start_hands
        )

    def _action_to_string(self, player: int, action: int) -> str:
        state = self._core.state
        if player == pyspiel.PlayerId.CHANCE or state is None:
            return f"shuffle: seed byte {len(self._core.seed_bytes)} = {action}"
        return action_text(state, player, int(action))

    def is_terminal(self) -> bool:
        state = self._core.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        state = self._core.state
        n = self.get_game().num_players()
        if state is None or not state.is_over:
            return [0.0] * n
        return utilities(final_scores(state).winners, n)

    def __str__(self) -> str:
        core = self._core
        if core.state is None:
            return f"shuffling: seed bytes {list(core.seed_bytes)}"
        return state_text(core.state)

    # -- information-set sampling (ISMCTS) --------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any) -> TtrState:
        """A state seat ``player`` cannot tell from this one, what it cannot see
        drawn at random (:func:`ttr_core.determinize`; ``sampler()`` gives the seed).

        The record of play keeps what ``player`` saw; the other seats' private
        facts (cards drawn blind, tickets offered and kept, starting hands)
        are masked in it.
        """
        core = self._core
        if core.state is None:
            return self.__deepcopy__({})  # nothing dealt yet: nothing is hidden
        sampled: TtrState = self.get_game().new_initial_state()
        seed = int(float(sampler()) * 2**53)
        state = determinize(player_view(core.state, player), seed)
        sampled._core = _Core(
            core.map_param,
            state,
            (),
            tuple(_mask(event, player) for event in core.events),
            tuple(h if seat == player else None for seat, h in enumerate(core.start_hands)),
        )
        return sampled

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.get_game()
        return (_load_state, (dict(game.get_parameters()), self.serialize()))

    def __deepcopy__(self, memo: dict[int, Any]) -> TtrState:
        clone: TtrState = self.clone()
        return clone

    def __copy__(self) -> TtrState:
        return copy.deepcopy(self)


_CHANCE = [(byte, 1.0 / CHANCE_OUTCOMES) for byte in range(CHANCE_OUTCOMES)]


def _dealt(core: _Core) -> GameState:
    if core.state is None:
        raise ArgumentError("the cards are not dealt yet: chance is still shuffling")
    return core.state


def _legal_by_id(state: GameState) -> dict[int, Action]:
    return dict(zip(legal_action_ids(state), legal_actions(state), strict=True))


def _mask(event: _Event, viewer: int) -> _Event:
    seat, aid, kind, public, _, display = event
    return event if seat == viewer else (seat, aid, kind, public, None, display)


def _event(before: GameState, aid: int, action: Action, after: GameState) -> _Event:
    board = before.board
    seat = action.player
    names = board.card_names
    changed = (
        None
        if after.display == before.display
        else tuple(None if c is None else names[c] for c in after.display)
    )
    if isinstance(action, DrawBlind):
        old = before.players[seat].hand.counts
        new = after.players[seat].hand.counts
        drawn = [names[c] for c, (a, b) in enumerate(zip(old, new, strict=True)) if b > a]
        return (seat, aid, "blind", None, drawn[0] if drawn else None, changed)
    if isinstance(action, DrawFaceUp):
        card = before.display[action.slot]
        return (seat, aid, "face_up", None if card is None else names[card], None, changed)
    if isinstance(action, DrawTickets):
        pending = after.pending
        offered = pending.offered if pending is not None and pending.player == seat else ()
        return (seat, aid, "tickets", len(offered), tuple(offered), changed)
    if isinstance(action, KeepTickets):
        pending = before.pending
        offered = pending.offered if pending is not None else ()
        kept = tuple(sorted(action.tickets))
        return (seat, aid, "keep", len(kept), (tuple(offered), kept), changed)
    if isinstance(action, ClaimRoute):
        return (seat, aid, "claim", None, None, changed)
    if isinstance(action, Pass):
        return (seat, aid, "pass", None, None, changed)
    # A variant action: what it was is told only to its seat (_event_text).
    return (seat, aid, "variant", None, None, changed)


# ---------------------------------------------------------------------------
# Strings
# ---------------------------------------------------------------------------


def _ticket(board: Board, ticket: int) -> str:
    t = board.tickets[ticket]
    return f"#{ticket} {t.a}-{t.b} ({t.points})"


def _cards(names: Sequence[str], counts: Iterable[int]) -> str:
    held = [f"{n}={c}" for n, c in zip(names, counts, strict=True) if c]
    return " ".join(held) or "none"


def action_text(state: GameState, player: int, aid: int) -> str:
    """Action id ``aid`` in words (for ``action_to_string``)."""
    space: ActionSpace = rules_space(state.rules)
    board = state.board
    if not 0 <= aid < space.size:
        return f"invalid action id {aid}"
    if aid >= space.core_size:
        return _variant_text(space, aid)
    if aid >= space.keep_base:
        mask = aid - space.keep_base
        pending = state.pending
        if pending is not None and pending.player == player and pending.offered:
            kept = [t for i, t in enumerate(pending.offered) if mask >> i & 1]
            return "keep " + ("; ".join(_ticket(board, t) for t in kept) or "no ticket")
        positions = [str(i) for i in range(space.keep_bits) if mask >> i & 1]
        return f"keep offered tickets at positions {','.join(positions) or 'none'}"
    template = space.template(aid)
    kind = template[0]
    if kind == "blind":
        return "draw a card from the deck"
    if kind == "face_up":
        slot = template[1]
        assert isinstance(slot, int)
        card = state.display[slot] if slot < len(state.display) else None
        shown = "" if card is None else f" ({board.card_names[card]})"
        return f"take face-up card {slot}{shown}"
    if kind == "tickets":
        return "draw tickets"
    if kind == "pass":
        return "pass"
    _, rid, colour, wilds = template
    assert isinstance(rid, int) and isinstance(wilds, int)
    route = board.routes[rid]
    paid = []
    if colour is not None:
        paid.append(f"{route.length - wilds} {colour}")
    if wilds:
        paid.append(f"{wilds} {board.wild_name}")
    return (
        f"claim #{rid} {route.a}-{route.b} ({route.color} {route.length}) with {' + '.join(paid)}"
    )


def _variant_text(space: ActionSpace, aid: int) -> str:
    """A variant action id in words: its variant, class and field values."""
    _, variant, cls, names, values = space.template(aid)
    assert isinstance(cls, type) and isinstance(names, tuple) and isinstance(values, tuple)
    fields = ", ".join(f"{n}={v!r}" for n, v in zip(names, values, strict=True))
    return f"{variant}: {cls.__name__}({fields})"


def state_text(state: GameState) -> str:
    """The whole state in words, hidden information included (``str(state)``)."""
    board = state.board
    names = board.card_names
    lines = [
        f"{board.id} {state.num_players}p turn {state.turn} "
        + (
            f"over ({state.termination})"
            if state.is_over
            else f"seat {state.current_player} to {state.pending.kind if state.pending else '?'}"
        ),
        "display: " + " ".join("-" if c is None else names[c] for c in state.display),
        "deck: " + " ".join(names[c] for c in state.deck),
        f"discard: {_cards(names, state.discard)}",
        f"ticket deck: {list(state.ticket_deck)} discard: {list(state.ticket_discard)}",
    ]
    if state.pending is not None and state.pending.offered:
        lines.append(f"offered: {list(state.pending.offered)} keep >= {state.pending.min_keep}")
    for i, offer in enumerate(state.start_offers):
        lines.append(f"start offer {i}: {list(offer)}")
    for seat, p in enumerate(state.players):
        lines.append(
            f"seat {seat}: cars {p.cars} score {p.score} hand {_cards(names, p.hand.counts)} "
            f"tickets {list(p.tickets)} routes {list(p.routes)}"
        )
    lines.append(
        f"final turns {state.final_turns} passes {state.passes} shuffles {state.shuffles} "
        f"seed {state.seed}"
    )
    for key, value in state.variant_state:
        lines.append(f"{key}: {value!r}")
    return "\n".join(lines)


def view_text(view: PlayerView) -> str:
    """What a seat sees, in words (the observation string)."""
    board = view.board
    names = board.card_names
    n = len(view.seats)
    head = f"seat {view.viewer} of {n}, turn {view.turn}: "
    if view.is_over:
        head += f"game over ({view.termination})"
    else:
        head += f"seat {view.current_player} to {view.pending}"
    lines = [head, f"hand: {_cards(names, view.hand.counts)}"]
    lines.append("tickets: " + ("; ".join(_ticket(board, t) for t in view.tickets) or "none"))
    if view.offered:
        lines.append(
            "offered: "
            + "; ".join(_ticket(board, t) for t in view.offered)
            + f" (keep at least {view.min_keep})"
        )
    elif view.offer_size:
        lines.append(f"offered to seat {view.current_player}: {view.offer_size} tickets")
    lines.append("display: " + " ".join(c or "-" for c in view.display))
    lines.append(
        f"deck {view.deck_size}, discard {view.discard_size}, ticket deck "
        f"{view.ticket_deck_size}, ticket discard {list(view.ticket_discard)}"
    )
    for seat in view.seats:
        known = " ".join(f"{k}={v}" for k, v in sorted(seat.known.items())) or "none"
        lines.append(
            f"seat {seat.seat}: cars {seat.cars}, cards {seat.hand_size} (known {known}), "
            f"tickets {seat.tickets_held}, score {seat.score}, routes {list(seat.routes)}"
        )
    for other in view.others:
        lines.append(f"{other.name}: routes {list(other.routes)}")
    if view.final_turns >= 0:
        lines.append(f"final round: {view.final_turns} turns left")
    if view.passes:
        lines.append(f"passes in a row: {view.passes}")
    for key in sorted(view.variants):
        lines.append(f"{key}: {view.variants[key]!r}")
    return "\n".join(lines)


def _event_text(space: ActionSpace, event: _Event, viewer: int) -> str:
    """One action of the record as seat ``viewer`` saw it."""
    board = space.board
    seat, aid, kind, public, private, display = event
    mine = seat == viewer
    if kind == "blind":
        text = f"draws {private if mine and private else 'a card'} blind"
    elif kind == "face_up":
        text = f"takes face-up {public}"
    elif kind == "tickets":
        if mine and private is not None:
            text = "draws tickets " + "; ".join(_ticket(board, t) for t in private)
        else:
            text = f"draws {public} tickets"
    elif kind == "keep":
        if mine and private is not None:
            offered, kept = private
            text = "keeps " + ("; ".join(_ticket(board, t) for t in kept) or "none")
            text += " of " + "; ".join(_ticket(board, t) for t in offered)
        else:
            text = f"keeps {public} tickets"
    elif kind == "claim":
        _, rid, colour, wilds = space.template(aid)
        assert isinstance(rid, int) and isinstance(wilds, int)
        route = board.routes[rid]
        paid = [f"{route.length - wilds} {colour}"] if colour is not None else []
        if wilds:
            paid.append(f"{wilds} {board.wild_name}")
        text = f"claims #{rid} {route.a}-{route.b} with {' + '.join(paid)}"
    elif kind == "variant":
        # Its fields may be the seat's own business: the others see only the variant.
        text = _variant_text(space, aid) if mine else f"takes a {space.template(aid)[1]} action"
    else:
        text = kind
    line = f"seat {seat} {text}"
    if display is not None:
        line += " | display " + " ".join(c or "-" for c in display)
    return line


def information_text(core: _Core, viewer: int) -> str:
    """The information state string: the seat's view now, its starting hand
    and every action so far as the seat saw it."""
    state = _dealt(core)
    board = state.board
    space = rules_space(state.rules)
    lines = [view_text(player_view(state, viewer)), "history:"]
    start = core.start_hands[viewer] if viewer < len(core.start_hands) else None
    lines.append("starting hand: " + ("?" if start is None else _cards(board.card_names, start)))
    lines += [_event_text(space, event, viewer) for event in core.events]
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Tensors
# ---------------------------------------------------------------------------

_HISTORY_COUNTS = ("blind", "tickets", "kept", "claims", "passes")


def history_features(board: Board, players: int) -> tuple[str, ...]:
    """Names of the features the information state adds to the observation:
    per seat, relative to the viewer, counts of what it did (draws blind,
    ticket draws, tickets kept, claims, passes, cards taken face up by
    kind), then the cards the viewer itself drew blind, by kind."""
    names: list[str] = []
    for k in range(players):
        names += [f"history.seat[+{k}].{what}" for what in _HISTORY_COUNTS]
        names += [f"history.seat[+{k}].face_up[{card}]" for card in board.card_names]
    names += [f"history.my_blind[{card}]" for card in board.card_names]
    return tuple(names)


def _history_vector(core: _Core, viewer: int, out: Any) -> None:
    state = _dealt(core)
    board = state.board
    n = state.num_players
    kinds = len(board.card_names)
    index = {name: i for i, name in enumerate(board.card_names)}
    per_seat = len(_HISTORY_COUNTS) + kinds
    cards = float(board.total_cards or 1)
    tickets = float(len(board.tickets) or 1)
    routes = float(len(board.routes) or 1)
    turns = float(2 * n * (board.rules.cars_per_player or 1))
    out.fill(0.0)
    for seat, _, kind, public, private, _ in core.events:
        base = ((seat - viewer) % n) * per_seat
        if kind == "blind":
            out[base] += 1 / cards
            if seat == viewer and private is not None:
                out[n * per_seat + index[private]] += 1 / cards
        elif kind == "tickets":
            out[base + 1] += 1 / tickets
        elif kind == "keep":
            out[base + 2] += public / tickets
        elif kind == "claim":
            out[base + 3] += 1 / routes
        elif kind == "pass":
            out[base + 4] += 1 / turns
        elif kind == "face_up" and public is not None:
            out[base + len(_HISTORY_COUNTS) + index[public]] += 1 / cards


class _Observer:
    """An OpenSpiel py-observer: the seat's view encoded (and, for the
    information state, the record of play summed up and spelled out)."""

    def __init__(self, game: TtrGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.perfect_recall = perfect_recall
        extra = len(history_features(game.board, game.players)) if perfect_recall else 0
        size = self.encoder.size
        self.tensor = np.zeros(size + extra, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:]

    def set_from(self, state: TtrState, player: int) -> None:
        core = state._core
        if core.state is None:
            self.tensor.fill(0.0)  # nothing dealt, nothing seen
            return
        self.dict["observation"][:] = core.observation(self.encoder, player)
        if self.perfect_recall:
            _history_vector(core, player, self.dict["history"])

    def string_from(self, state: TtrState, player: int) -> str:
        core = state._core
        if core.state is None:
            return f"seat {player}: the cards are being shuffled"
        if self.perfect_recall:
            return information_text(core, player)
        return view_text(player_view(core.state, player))


pyspiel.register_game(GAME_TYPE, TtrGame)
