"""Many games stepped together (ttr_core.vector): the same games on both engines,
dealt again as they end, checked actions."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ttr_core
from ttr_core import ArgumentError, IllegalAction
from ttr_core import native as native_package
from ttr_core.native import engine as native

np = pytest.importorskip("numpy")
from ttr_core.vector import VectorGames  # noqa: E402 - needs NumPy


def _run(engine: str, map: str, players: int, steps: int, variants: Any = None) -> list[Any]:
    games = VectorGames(map, players, count=8, seed=3, engine=engine, variants=variants)
    obs, masks, seats = games.reset()
    seen: list[Any] = [(obs.tobytes(), masks.tobytes(), seats.tolist())]
    rng = random.Random(1)
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in masks])
        obs, masks, rewards, done, seats = games.step(actions)
        seen.append(
            (obs.tobytes(), masks.tobytes(), rewards.tobytes(), done.tolist(), seats.tolist())
        )
    seen.append(games.states())
    return seen


@pytest.mark.skipif(not native_package.available, reason="the native engine was not built")
@pytest.mark.parametrize(
    ("map", "players", "steps", "variants"),
    [
        ("newyork", 2, 150, None),
        ("usa", 3, 450, None),
        # The variants' numbers observed by the engine: tunnels and stations (the
        # engine deals too), tolls and the neutral player (new_game deals).
        ("europe", 3, 500, None),
        ("nederland", 2, 400, ["tolls", "neutral"]),
    ],
)
def test_the_games_are_the_same_on_both_engines(
    map: str, players: int, steps: int, variants: Any
) -> None:
    native_run = _run("native", map, players, steps, variants)
    python_run = _run("python", map, players, steps, variants)
    assert native_run == python_run
    assert any(any(step[3]) for step in native_run[1:-1])  # games ended and were dealt again


@pytest.mark.skipif(not native_package.available, reason="the native engine was not built")
def test_the_engine_deals_new_games_as_new_game_does() -> None:
    for map, players, variants in [("newyork", 4, None), ("usa", 5, None), ("europe", 3, [])]:
        for seed in [*range(150), 2**255 + 11]:
            state = ttr_core.new_game(map, players, seed=seed, variants=variants)
            game = native.new_game_object(
                ttr_core.new_game(map, players, seed=1, variants=variants)
            )
            native.deal(game, seed)
            assert native.publish(game, state) == state


def test_an_ended_game_gives_its_results_and_starts_again() -> None:
    games = VectorGames("newyork", 2, count=4, seed=5)
    obs, masks, seats = games.reset()
    rng = random.Random(2)
    ended = 0
    for _ in range(400):
        actions = np.array([rng.choice(np.flatnonzero(m).tolist()) for m in masks])
        obs, masks, rewards, done, seats = games.step(actions)
        for i in np.flatnonzero(done):
            ended += 1
            assert rewards[i].sum() == pytest.approx(0.0) and rewards[i].max() > 0
            assert games.states()[i].ply == 0  # dealt again: the starting choice
        assert not rewards[~done].any()
        for i, state in enumerate(games.states()):
            assert seats[i] == state.current_player
            want = games.encoder.encode_state(state, int(seats[i]))
            assert obs[i].tolist() == np.asarray(want, dtype=np.float32).tolist()
            legal = ttr_core.legal_action_ids(state)
            assert sorted(np.flatnonzero(masks[i]).tolist()) == sorted(legal)
    assert ended >= 4


def test_an_illegal_action_is_refused_and_no_game_changes() -> None:
    games = VectorGames("newyork", 2, count=3, seed=1)
    _, masks, _ = games.reset()
    before = games.states()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    actions[2] = np.flatnonzero(masks[2] == 0)[0]
    with pytest.raises(IllegalAction, match="not legal in game 2"):
        games.step(actions)
    assert games.states() == before
    for junk in ([0, 1], "abc", np.zeros(3, dtype=float), None):
        with pytest.raises(ArgumentError, match="actions must be 3"):
            games.step(junk)
    assert games.states() == before


@pytest.mark.parametrize(
    ("arguments", "fragment"),
    [
        ({"count": 0}, "count must be"),
        ({"count": True}, "count must be"),
        ({"seed": -1}, "seed must be"),
        ({"seed": "x"}, "seed must be"),
        ({"engine": "fast"}, "engine must be"),
    ],
)
def test_bad_arguments_are_refused(arguments: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ArgumentError, match=fragment):
        VectorGames("newyork", 2, **arguments)


def test_stepping_before_a_reset_is_refused() -> None:
    with pytest.raises(ArgumentError, match="call reset"):
        VectorGames("newyork", 2, count=2).step(np.zeros(2, dtype=int))


def test_a_game_the_engine_cannot_play_runs_on_the_python_kernel() -> None:
    games = VectorGames("pennsylvania", 2, count=2, seed=1)  # shares: not native
    assert games.engine == "python"
    _, masks, _ = games.reset()
    actions = np.array([np.flatnonzero(m)[0] for m in masks])
    games.step(actions)
    assert [s.ply for s in games.states()] == [1, 1]
