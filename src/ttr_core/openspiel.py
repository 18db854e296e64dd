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
import threading
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

from ttr_core.data.messages import from_json, to_json
from ttr_core.errors import ArgumentError, IllegalAction, Reason, UnsupportedVariantError
from ttr_core.hooks.resolve import game_rules, resolve_variants
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
from ttr_core.model.board import Board, derive, evict_oldest
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState, Termination
from ttr_core.model.views import PlayerView
from ttr_core.observation import ObservationEncoder, ObservationTracker, observation_encoder
from ttr_core.rules.action_ids import (
    ActionSpace,
    check_all_numbered,
    ids_of_listed,
    legal_action_ids,
    rules_space,
)
from ttr_core.rules.determinize import determinize
from ttr_core.rules.engine import legal_actions
from ttr_core.rules.scoring import final_scores, utilities
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import player_view
from ttr_core.search.playout import Playout

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


#: Most game configurations kept per board (players, variants, options).
CONFIGS_KEPT = 32


class _Config:
    """What a game configuration (board, players, the ``variants`` and
    ``options`` parameters) gives every :class:`TtrGame` loaded with it: checked
    and built once per configuration (``pyspiel.load_game`` is called once a
    seed by many drivers), kept on the board. Never changed once built."""

    __slots__ = ("encoder", "recall", "rules", "space")

    def __init__(
        self,
        board: Board,
        players: int,
        variants: tuple[str, ...] | None,
        given: Mapping[str, Mapping[str, Any]],
    ) -> None:
        names = resolve_variants(board, variants)
        # Check the whole configuration as new_game does (player count, options,
        # the variants' own checks) before anything is built from it.
        new_game(board, players, seed=0, variants=names, options=given)
        rules = game_rules(board, players, names, given)
        # Variant actions have ids only if their variants declare them (ttr_action_space).
        check_all_numbered(rules, f"the OpenSpiel game {SHORT_NAME}")
        self.rules = rules
        self.space = rules_space(rules)
        self.encoder = observation_encoder(board, players, names, given)
        self.recall = _Recall(board, players)


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
        variants = _parse_variants(given["variants"])  # strings checked: the key must hash
        options = _parse_options(given["options"])  # this game's own (never shared) dicts
        # Kept on the board: load_map gives a new board once the variants
        # change (its files are cached per plugins_generation), so a load
        # after a variant is registered or unregistered sees it, as new_game does.
        key = ("openspiel", players, given["variants"], given["options"])
        config = derive(
            board,
            key,
            lambda: _Config(board, players, variants, options),
            evict_oldest("openspiel", CONFIGS_KEPT),
        )
        self.board: Board = board
        self.players: int = players
        self.rules: GameRules = config.rules
        self.space: ActionSpace = config.space
        self.encoder: ObservationEncoder = config.encoder
        self.map_param: str = map_name
        self.seed: int = seed
        self._options = options
        self._initial: _Core | None = None
        #: The layout of the information state's history part (history_features).
        self.recall = config.recall
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
            num_distinct_actions=config.space.size,
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
            core = self._initial = _Core.dealt_from(self.map_param, self._new_ttr_state(self.seed))
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
        opened._core = _Core.dealt_from(self.map_param, state)
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
        "events",
        "frozen",
        "ids",
        "map_param",
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
        self.seed_bytes = seed_bytes
        self.events: list[_Event] = list(events)
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
            self.frozen = None
        return play

    def is_over(self) -> bool:
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
            # encode_state is encode(player_view(state, seat)) without building the view.
            vector = np.asarray(encoder.encode_state(self.snapshot(), seat), dtype=np.float32)
            self.seen[seat] = vector
        return vector

    def apply(self, aid: int) -> None:
        """Play action id ``aid`` (a legal one, else :class:`IllegalAction` and
        nothing changes) and record it."""
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
        self.events.append(event)
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
        twin.seed_bytes = self.seed_bytes
        twin.events = list(self.events)
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


def _load_game(params: Mapping[str, Any]) -> TtrGame:
    game: TtrGame = pyspiel.load_game(SHORT_NAME, dict(params))
    return game


def _load_state(params: Mapping[str, Any], text: str) -> TtrState:
    state: TtrState = _load_game(params).deserialize_state(text)
    return state


class TtrState(pyspiel.State):  # type: ignore[misc]
    """An OpenSpiel state: a ttr-core game played in place
    (:class:`ttr_core.Playout`), published as a :class:`ttr_core.GameState`
    when asked (:attr:`ttr_state`)."""

    def __init__(self, game: TtrGame) -> None:
        super().__init__(game)
        if game.seed >= 0:
            self._core = game._dealt_core().fork()
        else:
            self._core = _Core(game.map_param, None)

    # -- what the engine holds ------------------------------------------------

    @property
    def ttr_state(self) -> GameState:
        """The engine's state (a :class:`ttr_core.GameState`; hidden information
        included). :class:`ArgumentError` while chance is still shuffling."""
        return self._core.snapshot()

    def view(self, player: int) -> PlayerView:
        """What seat ``player`` sees (:func:`ttr_core.player_view`)."""
        return player_view(self._core.snapshot(), player)

    def final_scores(self) -> FinalScores:
        """The score sheets of the finished game (:func:`ttr_core.final_scores`)."""
        return final_scores(self._core.snapshot())

    # -- OpenSpiel API ----------------------------------------------------------

    def current_player(self) -> int:
        return self._core.to_move

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action ids of ``player`` (default: the player to move), sorted:
        what OpenSpiel's ``State.legal_actions`` gives, answered here directly
        (the C++ method would call back into Python three times)."""
        core = self._core
        to_move = core.to_move
        if to_move >= 0 and (player is None or player == to_move):
            return list(core.legal_sorted())
        # Chance, the end, another seat, a pseudo-player: OpenSpiel's own answer.
        if player is None:
            ids: list[int] = super().legal_actions()
        else:
            ids = super().legal_actions(player)
        return ids

    def _legal_actions(self, player: int) -> list[int]:
        core = self._core
        if player != core.to_move or player < 0:
            return []
        # pybind11 copies the list into C++: the cached list is never handed out.
        return core.legal_sorted()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._core.dealt:
            return []
        return _CHANCE

    def _apply_action(self, action: int) -> None:
        core = self._core
        if not core.dealt:
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
                self._core = _Core.dealt_from(core.map_param, dealt, seed_bytes)
            return
        if core.is_over():
            raise IllegalAction(Reason.GAME_OVER, "the game is over: no action can be applied")
        core.apply(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE or not core.dealt:
            return f"shuffle: seed byte {len(core.seed_bytes)} = {action}"
        return action_text(core.snapshot(), player, int(action))

    def is_terminal(self) -> bool:
        return self._core.to_move == _TERMINAL

    def returns(self) -> list[float]:
        core = self._core
        n = self.get_game().num_players()
        if not core.is_over():
            return [0.0] * n
        return utilities(final_scores(core.snapshot()).winners, n)

    def __str__(self) -> str:
        core = self._core
        if not core.dealt:
            return f"shuffling: seed bytes {list(core.seed_bytes)}"
        return state_text(core.snapshot())

    # -- information-set sampling (ISMCTS) --------------------------------------

    def resample_from_infostate(self, player: int, sampler: Any) -> TtrState:
        """A state seat ``player`` cannot tell from this one, what it cannot see
        drawn at random (:func:`ttr_core.determinize`; ``sampler()`` gives the seed).

        The record of play keeps what ``player`` saw; the other seats' private
        facts (cards drawn blind, tickets offered and kept, starting hands)
        are masked in it.
        """
        core = self._core
        if not core.dealt:
            return self.__deepcopy__({})  # nothing dealt yet: nothing is hidden
        sampled: TtrState = self.get_game().new_initial_state()
        seed = int(float(sampler()) * 2**53)
        state = determinize(player_view(core.snapshot(), player), seed)
        sampled._core = _Core(
            core.map_param,
            state,
            (),
            [_mask(event, player) for event in core.events],
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
    state = core.snapshot()
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
#: The kinds of the record's actions, in the order of ``record[i].kind``.
_KINDS = ("blind", "face_up", "tickets", "keep", "claim", "pass", "variant")
_KIND_INDEX = {kind: i for i, kind in enumerate(_KINDS)}
_TERMINATIONS = tuple(Termination)


class _Recall:
    """The layout of the information state's history part for (board, players):
    the summary counts, the starting hand, one fixed-width row per action of
    the record (``max_game_length`` rows) and the view's order facts."""

    def __init__(self, board: Board, players: int) -> None:
        self.players = players
        self.names = board.card_names
        self.kinds = len(board.card_names)
        self.index = {name: i for i, name in enumerate(board.card_names)}
        self.display = board.rules.display_size
        self.offer = _core_space(board, players).keep_bits
        self.tickets = len(board.tickets)
        self.routes = len(board.routes)
        self.rows = _max_game_length(board, players)
        self.width = 5 + self.offer + self.display
        self.summary = players * (len(_HISTORY_COUNTS) + self.kinds) + self.kinds
        self.start = self.summary
        self.record = self.start + 1 + self.kinds
        self.view = self.record + self.rows * self.width
        self.size = self.view + self.display + 3 * self.tickets + self.routes + 1

    def feature_names(self) -> tuple[str, ...]:
        names: list[str] = []
        for k in range(self.players):
            names += [f"history.seat[+{k}].{what}" for what in _HISTORY_COUNTS]
            names += [f"history.seat[+{k}].face_up[{card}]" for card in self.names]
        names += [f"history.my_blind[{card}]" for card in self.names]
        names.append("history.start_hand.known")
        names += [f"history.start_hand[{card}]" for card in self.names]
        row = ["seat", "kind", "value", "keep_mask"]
        row += [f"offered[{j}]" for j in range(self.offer)]
        row.append("display_changed")
        row += [f"display[{s}]" for s in range(self.display)]
        for i in range(self.rows):
            names += [f"history.record[{i}].{what}" for what in row]
        names += [f"history.view.display[{s}]" for s in range(self.display)]
        for what in ("my_ticket_order", "offered_order", "ticket_discard_order"):
            names += [f"history.view.{what}[{t}]" for t in range(self.tickets)]
        names += [f"history.view.route_order[{r}]" for r in range(self.routes)]
        names.append("history.view.termination")
        assert len(names) == self.size
        return tuple(names)


def _core_space(board: Board, players: int) -> ActionSpace:
    return rules_space(game_rules(board, players, (), {}))


def history_features(board: Board, players: int) -> tuple[str, ...]:
    """Names of the features the information state adds to the observation.

    First a summary: per seat, relative to the viewer, counts of what it did
    (draws blind, ticket draws, tickets kept, claims, passes, cards taken face
    up by kind), then the cards the viewer itself drew blind, by kind. Then
    the perfect-recall part: the viewer's starting hand; one row per action
    of the record as the viewer saw it (``max_game_length`` rows: who acted,
    what kind of action, the card or count or action id it showed, the
    viewer's own offers and keeps, the display after it when it changed);
    and what the view shows in an order the observation does not keep (the
    display slot by slot, the order of the viewer's tickets, of its offer,
    of the ticket discard and of each owner's routes, how the game ended).
    ``docs/openspiel.md`` gives the encoding."""
    return _Recall(board, players).feature_names()


def _history_vector(core: _Core, viewer: int, out: Any) -> None:
    state = core.snapshot()
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


def _recall_vector(layout: _Recall, core: _Core, viewer: int, out: Any) -> None:
    """The history part of seat ``viewer``'s information state tensor, into ``out``.

    Everything written is what the information state string says, in
    numbers, each a one-to-one code of what it stands for (an index ``i`` of
    ``m`` possible values is ``(i + 1) / (m + 1)``, 0 for nothing): so two
    records the seat can tell apart differ somewhere, and a fact hidden from
    the seat (another seat's blind card, offer and keep) is never read.
    """
    state = core.snapshot()
    space = rules_space(state.rules)
    events = core.events
    if len(events) > layout.rows:
        raise ArgumentError(
            f"the game has {len(events)} actions, more than max_game_length ({layout.rows}) "
            "rows of the information state tensor"
        )
    _history_vector(core, viewer, out[: layout.summary])
    out[layout.summary :] = 0.0
    n = layout.players
    kinds = layout.kinds
    index = layout.index
    card_scale = kinds + 1.0
    start = core.start_hands[viewer] if viewer < len(core.start_hands) else None
    if start is not None:
        cards = float(state.board.total_cards or 1)
        out[layout.start] = 1.0
        out[layout.start + 1 : layout.start + 1 + kinds] = np.asarray(start) / cards
    offer = layout.offer
    ticket_scale = layout.tickets + 1.0
    id_scale = space.size + 1.0
    mask_scale = float(2**offer + 1)
    variants = {name: i for i, (name, _, _) in enumerate(space.variant_ranges)}
    changed_at = 4 + offer
    rows = out[layout.record : layout.view].reshape(layout.rows, layout.width)
    for row, (seat, aid, kind, public, private, display) in zip(rows, events, strict=False):
        mine = seat == viewer
        row[0] = ((seat - viewer) % n + 1) / n
        row[1] = (_KIND_INDEX[kind] + 1) / len(_KINDS)
        if kind == "blind":
            if mine and private is not None:
                row[2] = (index[private] + 1) / card_scale
        elif kind == "face_up":
            if public is not None:
                row[2] = (index[public] + 1) / card_scale
        elif kind == "tickets" or kind == "keep":
            row[2] = (public + 1) / (offer + 2)
            if mine and private is not None:
                offered = private if kind == "tickets" else private[0]
                if len(offered) > offer:
                    raise ArgumentError(f"an offer of {len(offered)} tickets: at most {offer}")
                for j, ticket in enumerate(offered):
                    row[4 + j] = (ticket + 1) / ticket_scale
                if kind == "keep":
                    mask = sum(1 << offered.index(t) for t in private[1])
                    row[3] = (mask + 1) / mask_scale
        elif kind == "claim":
            row[2] = (aid + 1) / id_scale
        elif kind == "variant":
            if mine:
                row[2] = (aid + 1) / id_scale
            else:  # only which variant: its fields may be the acting seat's own business
                row[3] = (variants.get(str(space.template(aid)[1]), -1) + 2) / (len(variants) + 2)
        if display is not None:
            row[changed_at] = 1.0
            for slot, card in enumerate(display, changed_at + 1):
                if card is not None:
                    row[slot] = (index[card] + 1) / card_scale
    # What the view shows in an order the observation vector does not keep.
    view = player_view(state, viewer)
    at = layout.view
    for slot, name in enumerate(view.display):
        if name is not None:
            out[at + slot] = (index[name] + 1) / card_scale
    at += layout.display
    for listed in (view.tickets, view.offered, view.ticket_discard):
        for place, ticket in enumerate(listed, 1):
            out[at + ticket] = place / ticket_scale
        at += layout.tickets
    route_scale = layout.routes + 1.0
    for owned in (*(seat.routes for seat in view.seats), *(o.routes for o in view.others)):
        for place, route in enumerate(owned, 1):
            out[at + route] = place / route_scale
    at += layout.routes
    if view.termination is not None:
        ended = _TERMINATIONS.index(Termination(view.termination))
        out[at] = (ended + 1) / (len(_TERMINATIONS) + 1)


class _Observer:
    """An OpenSpiel py-observer: the seat's view encoded (and, for the
    information state, the record of play summed up and spelled out)."""

    def __init__(self, game: TtrGame, perfect_recall: bool) -> None:
        self.encoder = game.encoder
        self.perfect_recall = perfect_recall
        self.recall = game.recall
        extra = self.recall.size if perfect_recall else 0
        size = self.encoder.size
        self.tensor = np.zeros(size + extra, np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[size:]
        # Each seat's vector kept up to date from the playouts it is asked of
        # (a driver asks of one game's positions in turn: only what changed
        # is written), made at the first use.
        self.trackers: dict[int, ObservationTracker] = {}
        # OpenSpiel gives every state of a game one observer: threads playing
        # states of one game share its trackers, which are mutable.
        self.lock = threading.Lock()

    def set_from(self, state: TtrState, player: int) -> None:
        core = state._core
        if not core.dealt:
            self.tensor.fill(0.0)  # nothing dealt, nothing seen
            return
        play = core.play
        kept = core.seen.get(player)
        if play is None or kept is not None or not 0 <= player < self.encoder.players:
            # A deal not played yet (shared by every initial state), a vector
            # worked out already, or a seat the encoder refuses (its error).
            self.dict["observation"][:] = core.observation(self.encoder, player)
        else:
            with self.lock:
                tracker = self.trackers.get(player)
                if tracker is None:
                    tracker = self.trackers[player] = self.encoder.tracker(player)
                tracker.update(play)
                self.dict["observation"][:] = np.frombuffer(tracker.vector, dtype=np.float32)
        if self.perfect_recall:
            _recall_vector(self.recall, core, player, self.dict["history"])

    def string_from(self, state: TtrState, player: int) -> str:
        core = state._core
        if not core.dealt:
            return f"seat {player}: the cards are being shuffled"
        if self.perfect_recall:
            return information_text(core, player)
        return view_text(player_view(core.snapshot(), player))


pyspiel.register_game(GAME_TYPE, TtrGame)
