"""The PettingZoo AEC environment (ttr_core.pettingzoo), against the real PettingZoo checks.

``TTR_ADAPTER_GAMES`` in the environment (a number) plays that many whole
random games per configuration through the AEC loop (the default run plays
two), and checks hidden information along more games. PettingZoo's
``api_test`` and ``seed_test`` each play one whole game per configuration
(1000 cycles is more than a random game lasts).
"""

from __future__ import annotations

import copy
import os
import pickle
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from typing import Any

import attrs
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

import ttr_core
from ttr_core import (
    ArgumentError,
    GameConfigError,
    GameState,
    IllegalAction,
    PlayerCountError,
    Reason,
    UnknownMapError,
    UnknownVariantError,
)
from ttr_core.checking.probes import hidden_changes
from ttr_core.pettingzoo import LOSS, TIE, WIN, env, raw_env

GAMES = int(os.environ.get("TTR_ADAPTER_GAMES") or 0)

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")

#: Every built-in map, with its smallest and largest player counts among them.
CONFIGS = [
    ("newyork", 2),
    ("newyork", 4),
    ("nederland", 2),
    ("nederland", 3),
    ("usa", 2),
    ("usa", 5),
    ("amsterdam", 2),
    ("amsterdam", 4),
    ("europe", 2),  # its default variants: tunnels, ferries, stations, long tickets, Express
    ("europe", 5),
    ("switzerland", 2),
    ("switzerland", 3),
    ("nordiccountries", 2),
    ("nordiccountries", 3),
    ("pennsylvania", 2),
    ("pennsylvania", 4),
    ("india", 2),
    ("india", 4),
]
IDS = [f"{m}-{p}" for m, p in CONFIGS]

#: What api_test says of any environment whose observations are dicts with an
#: action mask (it names PettingZoo's own such environments to keep them quiet).
EXPECTED_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def unexpected_warnings(caught: list[warnings.WarningMessage]) -> set[str]:
    return {
        str(w.message)
        for w in caught
        if not issubclass(w.category, ttr_core.GeneratedTicketsWarning)
        and str(w.message) not in EXPECTED_WARNINGS
    }


# ---------------------------------------------------------------------------
# PettingZoo's own checks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map_name", "players"), CONFIGS, ids=IDS)
def test_api_test_passes(map_name: str, players: int) -> None:
    # 1000 cycles is more than a random game lasts: play_test sees the end too.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(map_name, players), num_cycles=1000)
    assert not unexpected_warnings(caught)


@pytest.mark.parametrize(("map_name", "players"), CONFIGS, ids=IDS)
def test_seed_test_passes(map_name: str, players: int) -> None:
    seed_test(lambda: env(map_name, players), num_cycles=1000)


def test_api_test_passes_without_variants() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env("nederland", 2, variants=[]), num_cycles=1000)
    assert not unexpected_warnings(caught)


# ---------------------------------------------------------------------------
# Whole games through the AEC loop
# ---------------------------------------------------------------------------


def expected_rewards(scores: ttr_core.FinalScores) -> list[float]:
    """The documented rewards: +1 to a sole winner, 0 to each of tied winners, -1 to the rest."""
    winners = scores.winners
    won = 1.0 if len(winners) == 1 else 0.0
    return [won if seat in winners else -1.0 for seat in range(len(scores.sheets))]


def play(game: Any, rng: random.Random) -> tuple[list[int], dict[str, float]]:
    """A random game through the AEC loop with masks: the ids taken, the rewards seen."""
    base: raw_env = game.unwrapped
    taken: list[int] = []
    seen: dict[str, float] = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        assert not truncation
        state = base.game
        assert state is not None
        if termination:
            assert state.is_over and agent not in seen
            seen[agent] = reward
            assert info["score"] == ttr_core.final_scores(state).totals[int(agent[7:])]
            game.step(None)
            continue
        assert reward == 0
        assert agent == f"player_{state.current_player}"
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and observation["observation"].dtype == np.float32
        assert mask.tolist() == [int(b) for b in ttr_core.legal_action_mask(state)]
        for other in base.possible_agents:  # only the seat deciding has legal actions
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        action = rng.choice(np.flatnonzero(mask).tolist())
        taken.append(action)
        game.step(action)
    return taken, seen


@pytest.mark.parametrize(("map_name", "players"), CONFIGS, ids=IDS)
def test_random_games_end_with_rewards_from_final_scores(map_name: str, players: int) -> None:
    game = env(map_name, players)
    base: raw_env = game.unwrapped
    rng = random.Random(f"{map_name}-{players}")
    for seed in range(max(2, GAMES)):
        game.reset(seed=seed)
        taken, seen = play(game, rng)
        assert game.agents == []
        state = base.game
        assert state is not None and state.is_over
        scores = ttr_core.final_scores(state)
        assert [seen[a] for a in base.possible_agents] == expected_rewards(scores)
        # The environment played exactly the engine's game of that seed.
        replayed = ttr_core.new_game(map_name, players, seed=seed)
        for aid in taken:
            replayed = ttr_core.apply(replayed, ttr_core.action_from_id(replayed, aid))
        assert replayed == state


def tied_game() -> GameState:
    """A finished random New York game (no variants) whose two seats share the win."""
    for seed in range(1000):
        state = ttr_core.new_game("newyork", 2, seed=seed, variants=[])
        rng = random.Random(seed)
        while not state.is_over:
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        if len(ttr_core.final_scores(state).winners) == 2:
            return state
    pytest.fail("no tied game found")


def test_a_shared_win_gives_each_winner_the_tie_reward() -> None:
    game = env("newyork", 2, variants=[])
    game.reset(seed=0)
    state = tied_game()
    game.unwrapped.reset_to(state)
    assert game.terminations == {"player_0": True, "player_1": True}
    rewards = []
    for _agent in game.agent_iter():
        _, reward, termination, _, info = game.last()
        assert termination and info["winners"] == ("player_0", "player_1")
        rewards.append(reward)
        game.step(None)
    assert rewards == [0.0, 0.0] == expected_rewards(ttr_core.final_scores(state))
    assert (WIN, TIE, LOSS) == (1.0, 0.0, -1.0)


# ---------------------------------------------------------------------------
# Seeding
# ---------------------------------------------------------------------------


def test_a_seed_gives_the_engine_game_of_that_seed() -> None:
    game = env("usa", 3)
    base: raw_env = game.unwrapped
    game.reset(seed=12345)
    assert base.game == ttr_core.new_game("usa", 3, seed=12345)
    game.reset(seed=np.int64(12345))  # NumPy seeds too
    assert base.game == ttr_core.new_game("usa", 3, seed=12345)
    game.reset(seed=12346)
    assert base.game != ttr_core.new_game("usa", 3, seed=12345)


def test_resets_without_a_seed_follow_the_last_seed() -> None:
    a, b = env("newyork", 2), env("newyork", 2)
    a.reset(seed=3)
    b.reset(seed=3)
    games_a, games_b = [], []
    for _ in range(3):
        a.reset()
        b.reset()
        games_a.append(a.unwrapped.game)
        games_b.append(b.unwrapped.game)
    assert games_a == games_b
    assert len({g.seed for g in games_a}) == 3
    # Never seeded: fresh games from the operating system.
    c = env("newyork", 2)
    c.reset()
    first = c.unwrapped.game.seed
    c.reset()
    assert c.unwrapped.game.seed != first


@pytest.mark.parametrize("seed", [-1, 2**256, "7", 1.5, True])
def test_a_bad_seed_is_refused(seed: Any) -> None:
    game = env("newyork", 2)
    with pytest.raises(ArgumentError, match="seed"):
        game.reset(seed=seed)


def test_a_board_or_a_ticket_deck_file_configures_the_game(tmp_path: Any) -> None:
    board = ttr_core.load_map("amsterdam")
    deck = tmp_path / "deck.toml"
    deck.write_text(ttr_core.ticket_deck_toml(board, board.tickets[:12]), encoding="utf-8")
    game = env("amsterdam", 2, tickets=deck)
    game.reset(seed=3)
    assert game.unwrapped.game == ttr_core.new_game("amsterdam", 2, seed=3, tickets=deck)
    assert game.unwrapped.board is not board  # the deck file's board, kept for every game
    assert game.unwrapped.board is game.unwrapped.game.board
    on_board = env(board, 2)
    on_board.reset(seed=3)
    assert on_board.unwrapped.game == ttr_core.new_game(board, 2, seed=3)


# ---------------------------------------------------------------------------
# Observations show only what the seat may see
# ---------------------------------------------------------------------------


def states_along(map_name: str, players: int, seed: int, every: int) -> Iterator[GameState]:
    """Every ``every``-th state of a random game (the start and the end included)."""
    state = ttr_core.new_game(map_name, players, seed=seed)
    rng = random.Random(seed)
    step = 0
    yield state
    while not state.is_over:
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        step += 1
        if step % every == 0 or state.is_over:
            yield state


def unordered(view: ttr_core.PlayerView) -> ttr_core.PlayerView:
    """The view with its tickets in id order (the order they are held in says nothing)."""
    return attrs.evolve(view, tickets=tuple(sorted(view.tickets)))


def observation_of(base: raw_env, state: GameState, agent: str) -> tuple[list[float], list[int]]:
    base.reset_to(state)
    seen = base.observe(agent)
    return seen["observation"].tolist(), seen["action_mask"].tolist()


@pytest.mark.parametrize(("map_name", "players"), CONFIGS, ids=IDS)
def test_hidden_information_does_not_change_an_observation(map_name: str, players: int) -> None:
    base = raw_env(map_name, players)
    rng = random.Random(7)
    hidden_changed = visible_changed = 0
    states = (
        state
        for game_seed in range(1 + GAMES // 10)
        for state in states_along(map_name, players, seed=11 + game_seed, every=9)
    )
    for state in states:
        for seat, agent in enumerate(base.possible_agents):
            mine = observation_of(base, state, agent)
            view = ttr_core.player_view(state, seat)
            # Whole states rebuilt from the seat's view: all it cannot see dealt again.
            for k in range(3):
                other = ttr_core.determinize(view, seed=k)
                hidden_changed += other != state
                assert observation_of(base, other, agent) == mine
            # One hidden thing changed at a time (a hand, the deck, tickets, the seed, ...).
            for what, other in hidden_changes(state, seat, rng):
                assert observation_of(base, other, agent) == mine, what
            # What another seat cannot see, dealt again: this seat's own hand and
            # tickets, which it does see.
            someone = (seat + 1) % players
            theirs = ttr_core.player_view(state, someone)
            for k in range(3):
                other = ttr_core.determinize(theirs, seed=k)
                if unordered(ttr_core.player_view(other, seat)) != unordered(view):
                    visible_changed += 1
                    assert observation_of(base, other, agent) != mine
    assert hidden_changed > 0 and visible_changed > 0


def test_a_public_action_changes_every_observation() -> None:
    base = raw_env("newyork", 2)
    base.reset(seed=5)
    while True:  # to the first turn with a claim possible
        state = base.game
        assert state is not None
        claims = [a for a in ttr_core.legal_actions(state) if isinstance(a, ttr_core.ClaimRoute)]
        if claims:
            break
        base.step(ttr_core.legal_action_ids(state)[0])
    before = {a: base.observe(a)["observation"].copy() for a in base.possible_agents}
    base.step(ttr_core.action_id(state, claims[0]))
    for agent in base.possible_agents:
        assert not np.array_equal(base.observe(agent)["observation"], before[agent])


@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copy_of_the_environment_plays_on_apart_and_the_same(how: str) -> None:
    game = env("newyork", 2)
    game.reset(seed=4)
    rng = random.Random(4)
    for _ in range(7):
        mask = game.observe(game.agent_selection)["action_mask"]
        game.step(int(rng.choice(np.flatnonzero(mask))))
    twin = copy.deepcopy(game) if how == "deepcopy" else pickle.loads(pickle.dumps(game))
    raw = twin.unwrapped
    for _ in range(30):
        agent = game.agent_selection
        assert twin.agent_selection == agent
        for other in game.possible_agents:
            mine, theirs = game.observe(other), twin.observe(other)
            assert np.array_equal(mine["observation"], theirs["observation"])
            assert np.array_equal(mine["action_mask"], theirs["action_mask"])
            seat = raw._seats[other]
            wanted = raw.encoder.encode_state(raw.game, seat)
            assert np.array_equal(theirs["observation"], np.asarray(wanted, dtype=np.float32))
        aid = int(rng.choice(np.flatnonzero(game.observe(agent)["action_mask"])))
        game.step(aid)
        twin.step(aid)
    assert game.unwrapped.game == raw.game


def test_changing_an_observation_in_place_changes_no_later_one() -> None:
    base = raw_env("newyork", 2)
    base.reset(seed=5)
    first = base.observe("player_0")
    expected = {key: array.copy() for key, array in first.items()}
    first["observation"][:] = 7
    first["action_mask"][:] = 0
    again = base.observe("player_0")
    assert all(np.array_equal(again[key], expected[key]) for key in expected)


# ---------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------


def test_ansi_render_shows_the_public_table_only() -> None:
    base = raw_env("nederland", 3, render_mode="ansi")
    states = list(states_along("nederland", 3, seed=4, every=25))
    state = states[2]
    base.reset_to(state)
    text = base.render()
    assert isinstance(text, str)
    assert "player_0" in text and "player_2" in text and "to decide" in text
    for seat in range(3):  # what no seat sees cannot change the picture
        base.reset_to(ttr_core.determinize(ttr_core.player_view(state, seat), seed=1))
        assert base.render() == text
    base.reset_to(states[-1])
    assert "game over" in str(base.render())


def test_render_after_steps_names_the_last_action_publicly() -> None:
    base = raw_env("newyork", 2, render_mode="ansi")
    base.reset(seed=1)
    state = base.game
    assert state is not None
    keep = ttr_core.legal_action_ids(state)[0]
    base.step(keep)
    text = str(base.render())
    assert "last: player_0 kept" in text
    names = [f"{t.a}–{t.b}" for t in state.board.tickets]
    assert not any(name in text for name in names)  # no ticket named


def test_render_without_a_mode_warns_and_returns_none() -> None:
    base = raw_env("newyork", 2)
    base.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert base.render() is None


# ---------------------------------------------------------------------------
# Bad arguments and illegal actions
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"map": "atlantis"}, UnknownMapError, "atlantis"),
        ({"map": 3}, ArgumentError, "map"),
        ({"players": 9}, PlayerCountError, "9"),
        ({"players": "2"}, ttr_core.ArgumentError, "2"),
        ({"variants": ["nope"]}, UnknownVariantError, "nope"),
        ({"variants": "tolls"}, UnknownVariantError, "list"),
        ({"options": {"attractions": {"nope": 1}}}, ttr_core.OptionError, "nope"),
        ({"render_mode": "human"}, ArgumentError, "render_mode"),
        ({"render_mode": "svg"}, ArgumentError, "ttr_core.render"),
    ],
)
def test_a_bad_configuration_is_refused(kwargs: dict[str, Any], error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        env(**kwargs)


#: Games with variant actions (declared through ttr_action_space): the neutral
#: player, and the example package's card swap when the installed one declares its.
VARIANT_CONFIGS = [
    ("nederland", 2, ("tolls", "neutral")),
    pytest.param(
        "newyork",
        2,
        ("swap",),
        marks=pytest.mark.skipif(
            not hasattr(__import__("ttr_example_variant"), "ttr_action_space"),
            reason="the installed ttr-example-variant predates ttr_action_space",
        ),
    ),
]


@pytest.mark.parametrize(("map_name", "players", "variants"), VARIANT_CONFIGS)
def test_api_and_seed_tests_pass_with_variant_actions(
    map_name: str, players: int, variants: tuple[str, ...]
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(map_name, players, variants=variants), num_cycles=1000)
    assert not unexpected_warnings(caught)
    seed_test(lambda: env(map_name, players, variants=variants), num_cycles=1000)
    # Whole random games through the AEC loop meet the variant's ids and take them.
    game = env(map_name, players, variants=variants)
    core = ttr_core.action_space(game.unwrapped.board, players, [])
    assert game.action_space("player_0").n == game.unwrapped.space.size > core.size
    offered = taken = 0
    for seed in range(3):
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            state = game.unwrapped.game
            assert sorted(ttr_core.legal_action_ids(state)) == list(legal)
            offered += int((legal >= core.size).sum())
            action = int(rng.choice(legal))
            taken += action >= core.size
            game.step(action)
    assert offered and taken


def test_random_play_on_europe_reaches_every_mechanic() -> None:
    # Through the AEC loop with masks: tunnels paid and given up, stations built
    # (47 cities x 9 colours or none x 0-3 locomotives), ferries claimed (core ids).
    from ttr_core_plugins.ferries import locomotives
    from ttr_core_plugins.stations import BuildStation
    from ttr_core_plugins.tunnels import GiveUpTunnel, PayTunnel

    game = env("europe", 3)
    board = game.unwrapped.board
    core = ttr_core.action_space(board, 3, [])
    stations = len(board.locations) * 9 * 4
    assert game.action_space("player_0").n == core.size + stations + 5
    taken: set[str] = set()
    for seed in range(2):
        game.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in game.agent_iter():
            observation, _, termination, truncation, _ = game.last()
            if termination or truncation:
                game.step(None)
                continue
            aid = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            action = ttr_core.action_from_id(game.unwrapped.game, aid)
            if isinstance(action, PayTunnel | GiveUpTunnel | BuildStation):
                assert aid >= core.size
                taken.add(type(action).__name__)
            elif isinstance(action, ttr_core.ClaimRoute) and locomotives(board, action.route):
                assert aid < core.size and action.wilds >= locomotives(board, action.route)
                taken.add("ferry")
            game.step(aid)
    assert taken == {"PayTunnel", "GiveUpTunnel", "BuildStation", "ferry"}


class _Undeclared:
    """A variant listing an action of its own and declaring no ids for it."""

    @ttr_core.hookimpl
    def ttr_extra_actions(self, state: GameState) -> list[ttr_core.Action]:
        return []


def test_a_variant_with_actions_and_no_ids_is_refused_by_name() -> None:
    ttr_core.register_variant("undeclared", _Undeclared())
    try:
        with pytest.raises(GameConfigError, match="'undeclared' adds actions") as caught:
            env("nederland", 2, variants=["tolls", "undeclared"])
    finally:
        ttr_core.unregister_variant("undeclared")
    assert caught.value.variant == "undeclared"
    assert "ttr_action_space" in str(caught.value)


@pytest.fixture
def started() -> Iterator[Any]:
    game = env("newyork", 2)
    game.reset(seed=2)
    yield game


def test_an_illegal_action_id_is_refused_and_changes_nothing(started: Any) -> None:
    base: raw_env = started.unwrapped
    state = base.game
    assert state is not None
    mask = started.observe(started.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalAction, match=f"player_0 cannot take action id {illegal}"):
        started.step(illegal)
    with pytest.raises(IllegalAction, match=r"not in 0\.\."):
        started.step(base.space.size)
    assert base.game is state and started.agent_selection == "player_0"
    started.step(int(np.flatnonzero(mask)[0]))  # the game goes on
    assert base.game is not state


@pytest.mark.parametrize("action", ["3", 3.0, True, None, [3], np.float32(3)])
def test_a_value_that_is_not_an_action_id_is_refused(started: Any, action: Any) -> None:
    with pytest.raises(IllegalAction, match="must take an action id") as caught:
        started.step(action)
    assert caught.value.reason == Reason.UNKNOWN_ACTION


def test_numpy_integers_are_action_ids(started: Any) -> None:
    base: raw_env = started.unwrapped
    mask = started.observe("player_0")["action_mask"]
    legal = int(np.flatnonzero(mask)[0])
    started.step(np.array(legal, dtype=np.int64))  # a 0-d array, as policies give
    started.step(np.int16(int(np.flatnonzero(started.observe("player_1")["action_mask"])[0])))
    assert base.game is not None and base.game.turn >= 0


def test_a_finished_agent_takes_only_none() -> None:
    game = env("newyork", 2, variants=[])
    game.reset(seed=0)
    game.unwrapped.reset_to(tied_game())
    with pytest.raises(IllegalAction, match="must be stepped with None"):
        game.step(0)
    game.step(None)
    game.step(None)
    assert game.agents == []


def test_unknown_agents_and_foreign_states_are_refused(started: Any) -> None:
    base: raw_env = started.unwrapped
    with pytest.raises(ArgumentError, match="player_0, player_1"):
        started.observe("player_2")
    with pytest.raises(ArgumentError, match="agent"):
        started.action_space(0)
    with pytest.raises(ArgumentError, match="GameState"):
        base.reset_to("a state")  # type: ignore[arg-type]
    for other in (
        ttr_core.new_game("newyork", 3, seed=1),
        ttr_core.new_game("usa", 2, seed=1),
        ttr_core.new_game("newyork", 2, seed=1, variants=[]),
    ):
        with pytest.raises(ArgumentError, match="this environment plays 'newyork'"):
            base.reset_to(other)


def test_a_state_on_a_copy_of_the_map_with_the_same_id_is_refused(
    started: Any, tmp_path: Any
) -> None:
    """A user's own map file may reuse a built-in id: a game on it is another board."""
    from ttr_core.mapfiles.reading import _builtin_index

    text = _builtin_index()["newyork"].read_text(encoding="utf-8")
    copy = tmp_path / "mine.toml"
    copy.write_text(text.replace("points = 8", "points = 9", 1), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = ttr_core.load_map(str(copy))
    assert board.id == "newyork" and board is not started.unwrapped.board
    base: raw_env = started.unwrapped
    before = base.game
    with pytest.raises(ArgumentError, match="another board with the id 'newyork'"):
        base.reset_to(ttr_core.new_game(board, 2, seed=1))
    assert base.game is before


def test_the_raw_environment_before_a_reset_says_so() -> None:
    base = raw_env("newyork", 2)
    with pytest.raises(ArgumentError, match="reset"):
        base.observe("player_0")


def test_pettingzoos_illegal_move_wrapper_can_replace_the_error() -> None:
    # For training that punishes illegal moves instead of stopping: PettingZoo's wrapper
    # reads the mask from the observation and ends the game without asking the engine.
    game = wrappers.TerminateIllegalWrapper(raw_env("newyork", 2), illegal_reward=-1)
    game.reset(seed=2)
    mask = game.observe(game.agent_selection)["action_mask"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        game.step(int(np.flatnonzero(mask == 0)[0]))
    assert all(game.terminations.values())
    assert game.rewards["player_0"] == -1


# ---------------------------------------------------------------------------
# The optional extra
# ---------------------------------------------------------------------------


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_ttr_core_imports_none_of_the_extra() -> None:
    done = run_python(
        "import sys, ttr_core\n"
        "loaded = [m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules]\n"
        "print(loaded)"
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_without_pettingzoo_the_error_says_what_to_install() -> None:
    done = run_python("import sys\nsys.modules['pettingzoo'] = None\nimport ttr_core.pettingzoo\n")
    assert done.returncode != 0
    assert "pip install 'ttr-core[pettingzoo]'" in done.stderr
