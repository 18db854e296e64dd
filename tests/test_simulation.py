"""ttr_core.simulation: the same summary for the same seed on 1 or 2 worker
processes and on a Dask cluster; per-game results, tables, records and the
failure-state counts (docs/bots.md)."""

from __future__ import annotations

import csv
import importlib
import json
import random
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import Action, ClaimRoute, GameState, Pass, PlayerView
from ttr_core.agents import make_agent
from ttr_core.agents.seen import Seen
from ttr_core.simulation import (
    LOOPHOLES,
    TABLE_COLUMNS,
    SimulationError,
    format_summary,
    game_seed,
    play_game,
    simulate,
    state_loopholes,
    write_table,
)

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")

#: A small mixed simulation: 3 seats, bots and random play, chunks of 5 games so
#: that chunks finish out of order on several workers.
CONFIG: dict[str, Any] = {
    "map": "newyork",
    "players": 3,
    "agents": ["route", "onestep", "random"],
    "games": 48,
    "seed": 99,
    "chunk_size": 5,
    "per_game": True,
}


@pytest.fixture(scope="module")
def in_process() -> Any:
    return simulate(**CONFIG, workers=1)


def test_two_worker_processes_give_the_same_summary_and_games(in_process: Any) -> None:
    pooled = simulate(**CONFIG, workers=2)
    assert pooled.scheduler == "processes" and pooled.workers == 2
    assert in_process.scheduler == "local"
    assert pooled.summary == in_process.summary
    assert format_summary(pooled.summary) == format_summary(in_process.summary)
    assert pooled.games == in_process.games
    assert [g.index for g in pooled.games] == list(range(CONFIG["games"]))


def test_a_dask_local_cluster_gives_the_same_summary(in_process: Any) -> None:
    distributed = importlib.import_module("dask.distributed")  # the [dask] extra, in [test]
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        on_dask = simulate(**CONFIG, client=client)
        by_address = simulate(**{**CONFIG, "per_game": False}, scheduler=cluster.scheduler_address)
    assert on_dask.scheduler == "dask" and on_dask.workers == 2
    assert on_dask.summary == in_process.summary
    assert on_dask.games == in_process.games
    assert by_address.summary == in_process.summary


def test_without_dask_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.import_module

    def no_dask(name: str, package: str | None = None) -> Any:
        if name.startswith("dask"):
            raise ImportError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_dask)
    with pytest.raises(ImportError, match=r"pip install 'ttr-core\[dask\]'"):
        simulate("newyork", 2, ["random"], 2, scheduler="tcp://127.0.0.1:1")


def test_the_seed_decides_everything(in_process: Any) -> None:
    again = simulate(**{**CONFIG, "chunk_size": 48}, workers=1)
    assert again.summary == in_process.summary
    other = simulate(**{**CONFIG, "seed": 100}, workers=1)
    assert other.summary != in_process.summary
    assert game_seed(99, 0) != game_seed(99, 1) != game_seed(100, 0)
    assert 0 <= game_seed(99, 0) < 2**63


def test_a_game_is_its_seed_and_agents_alone(in_process: Any) -> None:
    """Game i replays on its own from game_seed(S, i) and its seated agents."""
    for game in in_process.games[:6]:
        assert game.seed == game_seed(CONFIG["seed"], game.index)
        state = ttr_core.new_game("newyork", 3, seed=game.seed)
        played = play_game(state, [make_agent(name) for name in game.agents], game.seed)
        assert played.scores.totals == game.scores
        assert played.actions == game.actions


def test_seats_rotate_so_every_agent_plays_every_seat(in_process: Any) -> None:
    seen = {(seat, name) for game in in_process.games for seat, name in enumerate(game.agents)}
    assert seen == {(seat, name) for seat in range(3) for name in CONFIG["agents"]}
    fixed = simulate(**{**CONFIG, "games": 6}, workers=1, rotate=False)
    assert {game.agents for game in fixed.games} == {("route", "onestep", "random")}
    short = simulate("newyork", 4, ["route", "random"], 4, per_game=True, workers=1)
    assert short.games[0].agents == ("route", "random", "route", "random")
    assert short.summary.agent("route").seat_games == 8


def test_the_summary_adds_up(in_process: Any) -> None:
    summary = in_process.summary
    games = in_process.games
    assert summary.games == len(games) == CONFIG["games"]
    assert sum(summary.seat_win_rate(s).value for s in range(3)) == pytest.approx(1)
    for name in CONFIG["agents"]:
        line = summary.agent(name)
        mine = [(g, s) for g in games for s, n in enumerate(g.agents) if n == name]
        assert line.seat_games == len(mine)
        wins = sum(1 / len(g.winners) for g, s in mine if s in g.winners)
        assert line.win_rate.value == pytest.approx(wins / len(mine))
        assert line.win_rate.low <= line.win_rate.value <= line.win_rate.high
        scores = [g.scores[s] for g, s in mine]
        assert line.score.mean == pytest.approx(sum(scores) / len(scores))
        assert (line.score.low, line.score.high) == (min(scores), max(scores))
        assert line.tickets_kept == sum(g.tickets_kept[s] for g, s in mine)
    assert summary.length.mean == pytest.approx(sum(g.turns for g in games) / len(games))
    assert sum(count for _, count in summary.endings) == len(games)
    top_route, top_count = summary.top_routes(1)[0]
    assert top_count == sum(1 for g in games if any(top_route in r for r in g.routes))
    text = format_summary(summary)
    for needle in ("win rate (95% CI)", "route", "ended by: cars", "failure states"):
        assert needle in text


def test_progress_and_games_in_order(in_process: Any) -> None:
    calls: list[tuple[int, int]] = []
    seen: list[int] = []
    result = simulate(
        **{**CONFIG, "per_game": False},
        workers=2,
        progress=lambda done, total: calls.append((done, total)),
        on_game=lambda game: seen.append(game.index),
    )
    assert result.games == ()
    assert seen == list(range(CONFIG["games"]))
    assert calls[-1] == (CONFIG["games"], CONFIG["games"])
    assert [done for done, _ in calls] == sorted(done for done, _ in calls)


def test_records_replay_to_the_same_game(tmp_path: Path) -> None:
    result = simulate("nederland", 3, ["hungry", "long"], 3, records=True, workers=1)
    for game in result.games:
        assert game.record is not None
        record = ttr_core.from_json(game.record, ttr_core.GameRecord)
        final = list(ttr_core.replay(record))[-1]
        assert ttr_core.final_scores(final).totals == game.scores
        assert json.loads(game.record)["seed"] == game.seed


def test_the_per_game_table_as_csv(in_process: Any, tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    write_table(in_process.games, path)
    with path.open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == TABLE_COLUMNS
    assert len(rows) == 3 * CONFIG["games"]
    first = in_process.games[0]
    assert [int(r["score"]) for r in rows[:3]] == list(first.scores)
    assert rows[0]["agent"] == first.agents[0] and int(rows[0]["seed"]) == first.seed
    wins = sum(float(r["win"]) for r in rows)
    assert wins == pytest.approx(CONFIG["games"])


def test_the_per_game_table_as_parquet(in_process: Any, tmp_path: Path) -> None:
    parquet = importlib.import_module("pyarrow.parquet")  # the [parquet] extra, in [test]
    path = tmp_path / "games.parquet"
    write_table(in_process.games, path)
    table = parquet.read_table(path)
    assert tuple(table.column_names) == TABLE_COLUMNS
    assert table.num_rows == 3 * CONFIG["games"]
    assert table.column("seed").to_pylist()[0] == in_process.games[0].seed


def test_parquet_without_pyarrow_says_so(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    real = importlib.import_module

    def no_arrow(name: str, package: str | None = None) -> Any:
        if name.startswith("pyarrow"):
            raise ImportError(f"No module named {name!r}")
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", no_arrow)
    with pytest.raises(SimulationError, match="pip install pyarrow"):
        write_table([], tmp_path / "games.parquet")


# ---------------------------------------------------------------------------
# Failure states
# ---------------------------------------------------------------------------


def test_each_failure_state_is_recognised() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    assert state_loopholes(state, ttr_core.legal_actions(state)) == []
    wild = state.board.wild
    empty = attrs.evolve(
        state,
        deck=(),
        discard=(0,) * len(state.discard),
        ticket_deck=(),
        display=(wild, wild, wild, 0, 1),
    )
    found = state_loopholes(empty, (Pass(0),))
    assert found == ["only_pass", "e3_guard", "deck_empty", "supply_empty", "tickets_empty"]
    assert set(found) | {"stalemate"} == set(LOOPHOLES)


class Gridlock:
    """A test variant under which no route can be claimed: the cards and tickets
    run out, then every seat can only pass."""

    @ttr_core.hookimpl
    def ttr_veto_action(self, state: ttr_core.GameState, action: Action) -> str | None:
        return "no route may be claimed" if isinstance(action, ClaimRoute) else None


@pytest.fixture
def gridlock() -> Iterator[str]:
    ttr_core.register_variant("gridlock", Gridlock())
    yield "gridlock"
    ttr_core.unregister_variant("gridlock")


def test_a_gridlocked_game_reaches_every_failure_state_but_e3(gridlock: str) -> None:
    """The bots fall back to legal actions when they cannot claim; the summary
    counts the passes, the stalemates and the empty supplies."""
    result = simulate(
        "newyork", 2, ["route", "hungry"], 4, variants=[gridlock], per_game=True, workers=1
    )
    summary = result.summary
    assert summary.ending("stalemate") == 4
    for name in ("only_pass", "stalemate", "deck_empty", "supply_empty", "tickets_empty"):
        assert summary.loophole(name)[0] == 4, name
    assert summary.loophole("e3_guard") == (0, 0)
    only_pass = sum(g.loopholes[0] for g in result.games)
    assert summary.loophole("only_pass") == (4, only_pass) and only_pass >= 4 * 2
    assert "stalemate 4 (100.0%)" in format_summary(summary)


def test_the_heuristic_bots_reach_failure_states_on_a_crowded_board() -> None:
    """Five long-route bots on the base map keep their cards for long routes: in
    about one game in seven the deck and the discard pile both run dry."""
    result = simulate("usa", 5, ["long"], 30, seed=4, workers=1)
    assert result.summary.loophole("deck_empty")[0] > 0
    assert result.summary.loophole("supply_empty")[0] > 0


# ---------------------------------------------------------------------------
# Bots in games of variants they know nothing about (here rather than in
# test_agents.py: registering a variant reloads every map, so it runs after
# the map tests)
# ---------------------------------------------------------------------------


class _BadAdvice:
    """A variant whose advice for the bots is broken."""

    @ttr_core.hookimpl
    def ttr_agent_route_costs(self, view: PlayerView) -> list[float]:
        raise RuntimeError("no advice today")


def test_broken_advice_stops_the_simulation_naming_the_variant_and_game() -> None:
    """Advice is checked like every hook result: a plugin's bug is reported (the
    variant, the hook, the game and its seed), not hidden by the bots."""
    ttr_core.register_variant("badadvice", _BadAdvice())
    try:
        state = ttr_core.new_game("newyork", 2, seed=2, variants=["attractions", "badadvice"])
        with pytest.raises(ttr_core.PluginError, match=r"'badadvice'.*ttr_agent_route_costs"):
            Seen(ttr_core.player_view(state, 0), random.Random(0), {})
        with pytest.raises(SimulationError, match=r"game 0 \(seed \d+.*badadvice.*no advice today"):
            simulate("newyork", 2, ["route"], 2, variants=["badadvice"], workers=1)
        random_only = simulate("newyork", 2, ["random"], 2, variants=["badadvice"], workers=1)
        assert random_only.summary.games == 2
    finally:
        ttr_core.unregister_variant("badadvice")


class _Secretive:
    """A variant with hidden state and no ``ttr_determinize`` that acts after each
    claim: no state can be dealt from a view, so the bots cannot measure a
    claim."""

    @ttr_core.hookimpl
    def ttr_variant_state_types(self) -> dict[str, Any]:
        return {"secretive": int}

    @ttr_core.hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant("secretive", 1)

    @ttr_core.hookimpl
    def ttr_after_claim(self, state: GameState) -> None:
        return None


def test_a_bot_that_cannot_measure_a_claim_still_plays() -> None:
    ttr_core.register_variant("secretive", _Secretive())
    try:
        start = ttr_core.new_game("newyork", 2, seed=4, variants=["secretive"])
        agents = [make_agent(bot) for bot in ("onestep", "long")]
        played = play_game(start, agents, seed=4)
        assert played.state.is_over
        state = start
        for action in played.history:
            claims = [a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute)]
            if claims:
                break
            state = ttr_core.apply(state, action)
        seen = Seen(ttr_core.player_view(state, claims[0].player), random.Random(0), {})
        assert seen.side_effects
        assert seen.side(claims[0]) == 0 and seen.memo["world"] is None
    finally:
        ttr_core.unregister_variant("secretive")


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------


class Cheat:
    name = "cheat"

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        return Pass(view.viewer)


class Crash:
    name = "crash"

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        raise RuntimeError("boom")


def test_an_agents_illegal_action_or_crash_names_the_game() -> None:
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+.*illegal action: Pass"):
        simulate("newyork", 2, [Cheat], 2, workers=1)
    with pytest.raises(SimulationError, match=r"game 0 .*seat 0 failed: RuntimeError\('boom'\)"):
        simulate("newyork", 2, [Crash], 2, workers=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": ["smart"]}, "no agent 'smart'; the agents are random"),
        ({"agents": ["random"] * 3}, "3 agents for 2 seats"),
        ({"agents": []}, "non-empty sequence"),
        ({"agents": "random"}, "non-empty sequence"),
        ({"agents": [42]}, "a name or a factory"),
        ({"games": 0}, "games must be"),
        ({"workers": 0}, "workers must be at least 1"),
        ({"chunk_size": 0}, "chunk_size must be at least 1"),
        ({"seed": "7"}, "seed must be a whole number"),
    ],
)
def test_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"map": "newyork", "players": 2, "agents": ["random"], "games": 2}
    with pytest.raises(SimulationError, match=message):
        simulate(**{**arguments, **kwargs})


def test_an_unplayable_configuration_fails_before_any_game() -> None:
    with pytest.raises(ttr_core.PlayerCountError):
        simulate("newyork", 6, ["random"], 2)
    with pytest.raises(ttr_core.UnknownMapError):
        simulate("atlantis", 2, ["random"], 2)


def test_a_board_or_map_file_is_sent_to_the_workers(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        board = ttr_core.load_map("newyork")
    by_name = simulate("newyork", 2, ["route", "random"], 12, workers=1)
    by_board = simulate(board, 2, ["route", "random"], 12, workers=2, chunk_size=3)
    assert by_board.summary == by_name.summary
    copy = tmp_path / "my_map.toml"
    maps = Path(__file__).resolve().parents[1] / "maps"
    copy.write_text((maps / "newyork.toml").read_text(encoding="utf-8"), encoding="utf-8")
    by_file = simulate(str(copy), 2, ["route", "random"], 12, workers=2, chunk_size=3)
    assert by_file.summary == by_name.summary


# ---------------------------------------------------------------------------
# Hostile arguments (found by a review: each was a bare exception or a silent
# mistake before)
# ---------------------------------------------------------------------------


class Impostor(ttr_core.agents.RouteAgent):
    """A route bot that calls itself random."""

    name = "random"


class MadeBy:
    """A factory object with neither ``name`` nor ``__name__``."""

    def __init__(self, kind: type) -> None:
        self.kind = kind

    def __call__(self) -> Any:
        return self.kind()


def _broken_factory() -> Any:
    raise ValueError("factory broke")


def test_two_different_agents_with_one_name_are_refused() -> None:
    with pytest.raises(SimulationError, match="both named 'random'"):
        simulate("newyork", 2, [Impostor, "random"], 2, workers=1)
    with pytest.raises(SimulationError, match="both named 'MadeBy'"):
        simulate(
            "newyork",
            2,
            [MadeBy(ttr_core.agents.RouteAgent), MadeBy(ttr_core.agents.RandomAgent)],
            2,
            workers=1,
        )
    same = simulate("newyork", 2, [MadeBy(ttr_core.agents.RouteAgent), "random"], 4, workers=1)
    assert same.summary.lineup == ("MadeBy", "random")  # a stable name, never an address


def test_agents_that_cannot_reach_a_worker_are_refused_before_any_game() -> None:
    with pytest.raises(SimulationError, match="cannot be sent to worker processes"):
        simulate("newyork", 2, [lambda: ttr_core.agents.RandomAgent()], 4, workers=2)
    played = simulate("newyork", 2, [lambda: ttr_core.agents.RandomAgent()], 2, workers=1)
    assert played.summary.games == 2


def test_a_factory_that_raises_names_the_game() -> None:
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+.*making an agent failed"):
        simulate("newyork", 2, [_broken_factory], 2, workers=1)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"agents": (a for a in ["random"])}, "non-empty sequence"),
        ({"agents": {"random", "route"}}, "non-empty sequence"),
        ({"on_game": 3}, "on_game must be a callable"),
        ({"client": 3}, "client must be a dask.distributed.Client"),
        ({"scheduler": 3}, "scheduler must be a Dask scheduler address"),
        ({"rotate": "x"}, "rotate must be True or False"),
        ({"progress": "yes"}, "progress must be True, False or a callable"),
    ],
)
def test_more_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    arguments: dict[str, Any] = {"map": "newyork", "players": 2, "agents": ["random"], "games": 2}
    with pytest.raises(SimulationError, match=message):
        simulate(**{**arguments, **kwargs})


def test_variants_given_as_one_string_get_new_games_message() -> None:
    with pytest.raises(ttr_core.UnknownVariantError, match="variants must be a list"):
        simulate("nederland", 2, ["random"], 2, variants="tolls")  # type: ignore[arg-type]


def test_a_bad_scheduler_address_is_a_simulation_error() -> None:
    with pytest.raises(SimulationError, match="cannot reach the Dask scheduler at 'bogus'"):
        simulate("newyork", 2, ["random"], 2, scheduler="bogus")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda s: play_game(None, [], 1), "state must be a ttr_core.GameState"),  # type: ignore[arg-type]
        (lambda s: play_game(s, None, 1), "one agent per seat"),  # type: ignore[arg-type]
        (lambda s: play_game(s, [make_agent("random")], 1), "one agent per seat"),
        (lambda s: play_game(s, [make_agent("random")] * 3, 1), "one agent per seat"),
        (lambda s: play_game(s, [make_agent("random")] * 2, "x"), "seed must be a whole"),  # type: ignore[arg-type]
        (
            lambda s: play_game(s, [make_agent("random")] * 2, 1, max_actions=0),
            "max_actions must be at least 1",
        ),
    ],
)
def test_play_game_checks_its_arguments(call: Any, message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        call(ttr_core.new_game("newyork", 2, seed=1))


def test_write_table_checks_its_arguments(tmp_path: Path) -> None:
    with pytest.raises(SimulationError, match="an iterable of GameResult"):
        write_table(None, tmp_path / "g.csv")  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match="from a GameResult, not 3"):
        write_table([3], tmp_path / "g.csv")  # type: ignore[list-item]
    with pytest.raises(SimulationError, match="must be a file name"):
        write_table([], 3)  # type: ignore[arg-type]


def test_an_empty_parquet_table_has_the_columns(tmp_path: Path) -> None:
    parquet = importlib.import_module("pyarrow.parquet")
    write_table([], tmp_path / "empty.parquet")
    table = parquet.read_table(tmp_path / "empty.parquet")
    assert tuple(table.column_names) == TABLE_COLUMNS and table.num_rows == 0
