"""The OpenSpiel classes: :class:`TtrGame`, :class:`TtrState` and the
observer, registered with pyspiel as ``python_ttr``. Together: each makes the
others (a game its states and observer, a state its game's).
"""

from __future__ import annotations

import copy
import threading
from collections.abc import Mapping
from typing import Any

from ttr_core.errors import ArgumentError, IllegalAction, Reason
from ttr_core.mapfiles.finding import load_map
from ttr_core.model.board import Board, derive, evict_oldest
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView
from ttr_core.observation import ObservationEncoder, ObservationTracker
from ttr_core.openspiel.config import (
    CONFIGS_KEPT,
    GAME_TYPE,
    PARAMETERS,
    SHORT_NAME,
    _check_int,
    _Config,
    _parse_options,
    _parse_variants,
)
from ttr_core.openspiel.core import (
    _CHANCE,
    _TERMINAL,
    CHANCE_OUTCOMES,
    SEED_BYTES,
    _Core,
    _mask,
)
from ttr_core.openspiel.tensors import _recall_vector
from ttr_core.openspiel.texts import action_text, information_text, state_text, view_text
from ttr_core.rules.action_ids import (
    ActionSpace,
)
from ttr_core.rules.determinize import determinize
from ttr_core.rules.scoring import final_scores, utilities
from ttr_core.rules.views import player_view
from ttr_core.search.playout import Playout

__all__ = ["TtrGame", "TtrState"]


from ttr_core.openspiel.deps import np, pyspiel


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
        self._template = config.template
        #: The layout of the information state's history part (history_features).
        self.recall = config.recall
        super().__init__(config.game_type, config.info, given)

    def _new_core(self, seed: int, seed_bytes: tuple[int, ...] = ()) -> _Core:
        """The core of the game dealt for ``seed`` (by the compiled engine when it
        plays and deals the game: ``Playout.deal_like``)."""
        play = Playout.deal_like(self._template, seed)
        return _Core.dealt_playout(self.map_param, play, seed_bytes)

    def _dealt_core(self) -> _Core:
        """The core of the fixed deal (``seed >= 0``), made once and shared.

        OpenSpiel makes a new initial state each time it is asked for the size
        of a tensor (every ``observation_tensor()`` call), and a core never
        changes, so every initial state can share one. Two threads making it
        at once make equal ones; either is kept.
        """
        core = self._initial
        if core is None:
            core = self._initial = self._new_core(self.seed)
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
            native = core.native
            if native is not None:
                return native.legal_sorted()  # type: ignore[no-any-return]  # sorted in C
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
        if core.native is not None and core.to_move >= 0:  # the compiled engine's step
            core.apply(int(action))
            return
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
                seed = int.from_bytes(bytes(seed_bytes), "big")
                self._core = game._new_core(seed, seed_bytes)
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
        play = core.play
        if play is not None and play.engine == "native":
            return list(play.returns())  # the compiled engine's own count
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
        if play is not None and kept is None and play.engine == "native":
            if 0 <= player < self.encoder.players:
                # The compiled engine writes it, in C, straight into the tensor.
                self.encoder.observe(play, player, self.dict["observation"])
            else:
                self.dict["observation"][:] = core.observation(self.encoder, player)
        elif play is None or kept is not None or not 0 <= player < self.encoder.players:
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
