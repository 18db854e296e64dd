"""Random playouts: whole games between players who pick uniformly among legal actions."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable, Mapping
from typing import Any

import attrs

from ttr_core.data.records import GameRecord, record_of
from ttr_core.errors import ArgumentError, show
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.scores import FinalScores
from ttr_core.model.state import GameState
from ttr_core.rules.consistency import MAX_ACTIONS
from ttr_core.rules.scoring import final_scores
from ttr_core.search.playout import Playout

#: The largest ``max_actions`` a playout takes: as many as a record holds.
MAX_PLAYOUT_ACTIONS = MAX_ACTIONS


@attrs.frozen
class PlayoutResult:
    """A finished random game.

    ``state`` is the final state, ``scores`` its :class:`FinalScores`,
    ``actions`` the *number* of actions applied (the starting ticket choices
    included) and ``history`` the actions themselves, in order; the property
    ``turns`` is the number of turns played and ``record`` the game's
    :class:`GameRecord` (to save with ``to_json`` and replay).
    """

    state: GameState = attrs.field(repr=False)
    scores: FinalScores
    actions: int
    history: tuple[Action, ...] = attrs.field(default=(), repr=False)

    @property
    def record(self) -> GameRecord:
        """The game's record: its configuration, seed and every action."""
        options = {variant: dict(values) for variant, values in self.state.rules.options}
        return record_of(self.state, self.history, options)

    @property
    def turns(self) -> int:
        """Turns played (the starting ticket choice is not a turn)."""
        return self.state.turn


def random_playout(
    map: str | os.PathLike[str] | Board,
    players: int,
    seed: int = 0,
    variants: Iterable[str] | None = None,
    *,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    tickets: str | os.PathLike[str] | None = None,
    max_actions: int = 100_000,
) -> PlayoutResult:
    """Play one game with random players. The game's seed and the players' choices
    both derive from ``seed``, so the same arguments replay the same game.
    ``map``, ``players``, ``variants``, ``options`` and ``tickets`` are as for
    :func:`new_game`. ``max_actions`` (an int from 1 to :data:`MAX_PLAYOUT_ACTIONS`)
    bounds the game: :class:`ArgumentError` for one out of range and for a game
    that has not ended within it."""
    if type(max_actions) is not int or not 1 <= max_actions <= MAX_PLAYOUT_ACTIONS:
        raise ArgumentError(
            f"max_actions must be an int from 1 to {MAX_PLAYOUT_ACTIONS}, "
            f"not {type(max_actions).__name__} {show(max_actions)}"
        )
    # Played in place (the rules kernel): the pure API's game, no frozen state per action.
    playout = Playout.new(
        map, players, seed=seed, variants=variants, options=options, tickets=tickets
    )
    # The choices of random.Random(seed); an int seed goes to the compiled
    # engine as it is, which seeds its own copy of the generator in C.
    history = playout.play_random(seed if type(seed) is int else random.Random(seed), max_actions)
    if len(history) >= max_actions:  # even when the last action ended the game
        raise ArgumentError(f"the game did not end within max_actions={max_actions} actions")
    state = playout.snapshot()
    return PlayoutResult(state, final_scores(state), len(history), tuple(history))
