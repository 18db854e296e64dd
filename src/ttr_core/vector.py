"""Many games stepped together, for reinforcement learning: action ids in;
observations, action masks and rewards out, as NumPy arrays.

:class:`VectorGames` holds ``count`` games of one configuration. Each step
takes one action id per game (for the seat deciding in it) and gives back,
for every game, the observation vector of the seat now deciding (the layout
of :func:`ttr_core.observation_encoder`, from that seat's side), its action
mask (one byte per id of :func:`ttr_core.action_space`), each seat's reward
and whether the game just ended. A game that ends is dealt again at once
(the next seed of its sequence) and its new first observation is returned,
as Gymnasium's vector environments do; its final rewards are in that step's
``rewards``::

    import numpy as np
    from ttr_core.vector import VectorGames

    games = VectorGames("newyork", players=2, count=256, seed=1)
    obs, masks, seats = games.reset()
    rng = np.random.default_rng(0)
    for _ in range(1_000):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, masks, rewards, done, seats = games.step(actions)

On the compiled engine (the default where it plays the game:
``ttr_core.native``) every game lives in C: stepping, dealing a new game,
the observation and the mask are written there, one Python call per game
and step. Otherwise the Python kernel plays the same games. Rewards are the
zero-sum results of :func:`ttr_core.utilities` (1 for a sole winner), 0
before the end. Needs NumPy (the ``openspiel`` or ``pettingzoo`` extra).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping
from typing import Any

from ttr_core.errors import ArgumentError, IllegalAction, Reason, show, what
from ttr_core.model.board import Board
from ttr_core.native import engine as native
from ttr_core.observation import observation_encoder
from ttr_core.rules.action_ids import check_all_numbered, rules_space
from ttr_core.rules.setup import SEED_LIMIT, new_game
from ttr_core.search.playout import Playout

try:
    import numpy as np
    import numpy.typing as npt
except ImportError as exc:  # pragma: no cover - exercised only without NumPy
    raise ImportError(
        "ttr_core.vector needs NumPy: pip install '.[pettingzoo]' (or '.[openspiel]') "
        "in a clone of ttr-core"
    ) from exc

#: What :meth:`VectorGames.step` returns: observations, masks, rewards, done, seats.
Step = tuple[
    "npt.NDArray[np.float32]",
    "npt.NDArray[np.uint8]",
    "npt.NDArray[np.float32]",
    "npt.NDArray[np.bool_]",
    "npt.NDArray[np.int64]",
]

#: The most games one :class:`VectorGames` holds.
MAX_GAMES = 1 << 16


class VectorGames:
    """``count`` games of one configuration stepped together (see the module).

    ``map``, ``players``, ``variants``, ``options`` and ``tickets`` are those
    of :func:`ttr_core.new_game`; ``seed`` (an int, or ``None`` for a fresh
    one) starts the sequence of the games' seeds: game ``i`` of the ``k``-th
    deal of that slot plays a seed drawn from it, so the same seed gives the
    same games. ``engine`` is as for :class:`ttr_core.Playout`.

    The arrays returned are the object's own, overwritten by the next call
    (copy them to keep them). Not safe to share between threads.
    """

    def __init__(
        self,
        map: str | os.PathLike[str] | Board = "newyork",
        players: int = 2,
        count: int = 64,
        variants: Iterable[str] | None = None,
        options: Mapping[str, Mapping[str, Any]] | None = None,
        seed: int | None = None,
        tickets: str | os.PathLike[str] | None = None,
        engine: str | None = None,
    ) -> None:
        if type(count) is not int or not 1 <= count <= MAX_GAMES:
            raise ArgumentError(f"count must be an int from 1 to {MAX_GAMES}, not {show(count)}")
        if seed is not None and (type(seed) is not int or not 0 <= seed < SEED_LIMIT):
            raise ArgumentError(
                f"seed must be None or an int from 0 to 2**256 - 1, not {show(seed)}"
            )
        native.engine_choice(engine)
        trial = new_game(map, players, seed=0, variants=variants, options=options, tickets=tickets)
        rules = trial.rules
        check_all_numbered(rules, "VectorGames")
        self.board: Board = trial.board
        self.players = players
        self.count = count
        self._options = {variant: dict(values) for variant, values in rules.options}
        self._variants = rules.variants
        self.encoder = observation_encoder(self.board, players, rules.variants, self._options)
        #: Numbers in an observation, and action ids (a mask's length).
        self.observation_size: int = self.encoder.size
        self.action_size: int = rules_space(rules).size
        self._seeds = random.Random(seed)
        self._engine = engine
        probe = Playout(trial, engine)
        #: Which engine plays the games: ``"native"`` or ``"python"``.
        self.engine: str = probe.engine
        # The engine's layout (None: the engine cannot write this configuration's vectors).
        self._layout = self.encoder._native_layout()
        self._deal_natively = (
            self.engine == "native" and native.deals(rules) and self._layout is not None
        )
        self.observations: npt.NDArray[np.float32] = np.zeros(
            (count, self.observation_size), dtype=np.float32
        )
        self.masks: npt.NDArray[np.uint8] = np.zeros((count, self.action_size), dtype=np.uint8)
        self.rewards: npt.NDArray[np.float32] = np.zeros((count, players), dtype=np.float32)
        self.done: npt.NDArray[np.bool_] = np.zeros(count, dtype=np.bool_)
        self.seats: npt.NDArray[np.int64] = np.zeros(count, dtype=np.int64)
        self._plays: list[Playout] = []
        self._template = trial
        self._compiled: list[Any] = []
        #: The compiled games, when one call steps them all (see reset()).
        self._batch: tuple[Any, ...] | None = None

    # -- stepping -----------------------------------------------------------------

    def reset(
        self, seed: int | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
        """Deal every game anew (a ``seed`` restarts the sequence of seeds);
        ``(observations, masks, seats)``."""
        if seed is not None:
            if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
                raise ArgumentError(
                    f"seed must be None or an int from 0 to 2**256 - 1, not {show(seed)}"
                )
            self._seeds = random.Random(seed)
        fresh = not self._plays
        for i in range(self.count):
            if fresh:
                self._plays.append(self._new(None))
            else:
                self._plays[i] = self._new(self._plays[i])
            self._write(i)
        # Every game in the compiled engine, dealt there again as it ends: one
        # call steps them all (the games stay the same objects).
        self._compiled = [play._compiled() for play in self._plays]
        if self._deal_natively and all(game is not None for game in self._compiled):
            self._batch = tuple(game.game for game in self._compiled)
        self.rewards.fill(0.0)
        self.done.fill(False)
        return self.observations, self.masks, self.seats

    def step(self, actions: Any) -> Step:
        """Take ``actions[i]`` (an action id, legal for the seat deciding game
        ``i``) in every game; ``(observations, masks, rewards, done, seats)``.

        An action that is not legal raises :class:`IllegalAction` naming the
        game, and no game is changed (every action is checked first).
        """
        plays = self._plays
        if not plays:
            raise ArgumentError("no games yet: call reset() first")
        try:
            ids = np.asarray(actions)
        except Exception:
            raise ArgumentError(
                f"actions must be {self.count} action ids, not {what(actions)}"
            ) from None
        if ids.shape != (self.count,) or ids.dtype.kind not in "iu":
            raise ArgumentError(
                f"actions must be {self.count} integer action ids (shape ({self.count},)), "
                f"not {what(actions)}"
            )
        if self._batch is not None:
            return self._step_batch(ids)
        chosen = ids.tolist()
        masks = self.masks
        for i, aid in enumerate(chosen):
            if not 0 <= aid < self.action_size or not masks[i, aid]:
                raise IllegalAction(
                    Reason.UNKNOWN_ACTION, f"action id {aid} is not legal in game {i}"
                )
        rewards = self.rewards
        done = self.done
        rewards.fill(0.0)
        done.fill(False)
        for i, aid in enumerate(chosen):
            play = plays[i]
            play.apply_id(aid)
            if play.is_over():
                rewards[i] = play.returns()
                done[i] = True
                plays[i] = play = self._new(play)
            self._write(i)
        return self.observations, self.masks, rewards, done, self.seats

    # -- inside ---------------------------------------------------------------------

    def _step_batch(self, ids: Any) -> Step:
        """:meth:`step` with every game on the compiled engine: one call steps them all."""
        assert self._batch is not None
        actions = np.ascontiguousarray(ids, dtype=np.int64)
        compiled = self._compiled
        try:
            ended = native.step_batch(
                self._batch, actions, self.observations, self.masks, self.rewards, self.done,
                self.seats,
            )  # fmt: skip
        except ValueError as exc:  # an illegal id, found before any game changed
            raise IllegalAction(Reason.UNKNOWN_ACTION, str(exc)) from None
        finally:
            for game in compiled:  # what was worked out of the old positions is gone
                game.touched()
        for i in ended:
            self._new(self._plays[i])
            self._write(i)
        return self.observations, self.masks, self.rewards, self.done, self.seats

    def _new(self, old: Playout | None) -> Playout:
        """A new game for a slot (the old one's compiled state dealt again, when it can)."""
        seed = self._seeds.getrandbits(128)
        if old is not None and self._deal_natively:
            game = old._compiled()
            native.deal(game.game, seed)
            game.restart(self._template, seed)
            return old
        state = new_game(self.board, self.players, seed, self._variants, options=self._options)
        return Playout(state, self._engine)

    def _write(self, i: int) -> None:
        play = self._plays[i]
        seat = play.current_player
        assert seat is not None  # a game that ended was dealt again
        self.seats[i] = seat
        game = play._compiled()
        if game is not None and self._layout is not None:
            game.observe(seat, self.observations[i], self._layout)
            game.legal_mask(self.masks[i])
        else:
            self.encoder.observe(play, seat, self.observations[i])
            play.legal_mask(self.masks[i])

    def states(self) -> list[Any]:
        """Every game's frozen state (:meth:`ttr_core.Playout.snapshot`), in order."""
        return [play.snapshot() for play in self._plays]
