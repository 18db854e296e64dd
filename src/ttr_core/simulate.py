"""Random playouts: whole games between players who pick uniformly among legal actions."""

from __future__ import annotations

import os
import random
from collections.abc import Iterable

import attrs

from .actions import Action
from .board import Board
from .engine import apply, legal_actions, new_game
from .scoring import FinalScores, final_scores
from .state import GameState


@attrs.frozen
class PlayoutResult:
    """A finished random game: final state, scores, and how many actions it took."""

    state: GameState = attrs.field(repr=False)
    scores: FinalScores
    actions: int

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
    max_actions: int = 100_000,
) -> PlayoutResult:
    """Play one game with random players. The game's seed and the players' choices
    both derive from ``seed``, so the same arguments replay the same game."""
    state = new_game(map, players, seed=seed, variants=variants)
    chooser = random.Random(seed)
    count = 0
    while state.pending is not None:
        options = legal_actions(state)
        action: Action = (
            options[chooser.randrange(len(options))] if len(options) > 1 else options[0]
        )
        state = apply(state, action)
        count += 1
        if count >= max_actions:
            raise RuntimeError(f"game did not end within {max_actions} actions")
    return PlayoutResult(state, final_scores(state), count)
