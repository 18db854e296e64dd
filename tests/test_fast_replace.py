"""The engine's hand-written copies with changes are exactly ``attrs.evolve``."""

from __future__ import annotations

import inspect

import attrs

import ttr_core
from ttr_core.model.state import GameState, PlayerState, replace_player, replace_state

from .helpers import new_started


def test_they_know_every_field() -> None:
    for cls, function in ((GameState, replace_state), (PlayerState, replace_player)):
        fields = [f.name for f in attrs.fields(cls) if f.init]
        assert list(inspect.signature(function).parameters)[1:] == fields


def test_they_equal_attrs_evolve() -> None:
    state = new_started(players=3, map="nederland")
    assert replace_state(state) == state and replace_state(state) is not state
    changed = replace_state(state, turn=9, passes=1, deck=state.deck[1:])
    assert changed == attrs.evolve(state, turn=9, passes=1, deck=state.deck[1:])
    assert changed.board is state.board and changed.variant_state == state.variant_state
    player = state.players[1]
    assert replace_player(player, cars=3) == attrs.evolve(player, cars=3)
    assert replace_player(player, play_points=2).play_points == 2
    assert ttr_core.legal_actions(changed) is not ttr_core.legal_actions(state)
