"""``ttr simulate`` (ttr_core.cli.simulate.main): the summary table, the per-game
table and records, the agents listed, bad arguments refused (docs/bots.md)."""

from __future__ import annotations

import csv
import importlib
import json
from pathlib import Path

import pytest

import ttr_core
from ttr_core import cli
from ttr_core.agents import AGENTS
from ttr_core.cli import simulate as simulate_cli
from ttr_core.simulation import TABLE_COLUMNS, format_summary, simulate

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")

BASE = ["--map", "newyork", "--players", "2", "--agents", "route,random", "--games", "12"]


def test_the_summary_is_printed(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_cli.main([*BASE, "--seed", "5", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    expected = simulate("newyork", 2, ["route", "random"], 12, seed=5, workers=1)
    assert out.startswith(format_summary(expected.summary))
    assert "12 games in" in out and "in this process" in out


def test_two_workers_print_the_same_summary(capsys: pytest.CaptureFixture[str]) -> None:
    simulate_cli.main([*BASE, "--workers", "1", "--no-progress"])
    one = capsys.readouterr().out
    simulate_cli.main([*BASE, "--workers", "2", "--no-progress", "--chunk-size", "2"])
    two = capsys.readouterr().out
    assert one.split("\n12 games in")[0] == two.split("\n12 games in")[0]
    assert "on 2 worker processes" in two


def test_the_per_game_table_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table, records = tmp_path / "games.csv", tmp_path / "games.jsonl"
    argv = [*BASE, "--workers", "2", "--out", str(table), "--records", str(records)]
    assert simulate_cli.main(argv) == 0
    with table.open(encoding="utf-8") as stream:
        rows = list(csv.DictReader(stream))
    assert tuple(rows[0]) == TABLE_COLUMNS and len(rows) == 24
    assert [int(r["game"]) for r in rows] == [g for g in range(12) for _ in range(2)]
    lines = records.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 12
    for line, (first, second) in zip(lines, zip(rows[::2], rows[1::2], strict=True), strict=True):
        record = ttr_core.from_json(line, ttr_core.GameRecord)
        assert record.seed == int(first["seed"]) == json.loads(line)["seed"]
        final = list(ttr_core.replay(record))[-1]
        assert ttr_core.final_scores(final).totals == (int(first["score"]), int(second["score"]))
    out = capsys.readouterr().out
    assert f"per-game table: {table}" in out and f"game records: {records}" in out


def test_a_variant_option_and_fixed_seats(tmp_path: Path) -> None:
    table = tmp_path / "games.csv"
    argv = [
        *BASE,
        "--option",
        "attractions.points_per_attraction=3",
        "--fixed-seats",
        "--workers",
        "1",
        "--out",
        str(table),
    ]
    assert simulate_cli.main(argv) == 0
    with table.open(encoding="utf-8") as stream:
        agents = {(r["seat"], r["agent"]) for r in csv.DictReader(stream)}
    assert agents == {("0", "route"), ("1", "random")}


def test_the_agents_are_listed(capsys: pytest.CaptureFixture[str]) -> None:
    assert simulate_cli.main(["--list-agents"]) == 0
    out = capsys.readouterr().out
    for name, agent in AGENTS.items():
        assert f"{name:<8} {agent.summary}" in out


def test_ttr_simulate_is_a_subcommand_of_ttr(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["simulate", "--list-agents"]) == 0
    assert "onestep" in capsys.readouterr().out
    assert cli.main(["simulate", *BASE, "--games", "3", "--workers", "1", "--no-progress"]) == 0
    assert "3 games in" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--agents", "genius"], "no agent 'genius'"),
        (["--games", "0"], "--games and --workers must be at least 1"),
        (["--workers", "0"], "--games and --workers must be at least 1"),
        (["--players", "9"], "players"),
        (["--map", "atlantis"], "atlantis"),
        (["--option", "attractions.points_per_attraction=many"], "expected a whole number"),
        (["--out", "{tmp}/games.xlsx"], "table format must be csv or parquet"),
        (["--top-routes", "-3"], "--top-routes must be at least 0"),
        (["--workers", "2", "--scheduler", "tcp://x:1"], "not both"),
        (["--scheduler", "bogus"], "cannot reach the Dask scheduler at 'bogus'"),
    ],
)
def test_bad_arguments_exit_2(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = simulate_cli.main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("ttr simulate: ") and message in err


#: The Dask run, in a process of its own: in the whole suite's process, Dask's
#: LoopRunner sometimes failed its own 10 s start-up assertion after the many
#: threads and loops earlier tests leave (never when run alone).
DASK_RUN = """
import sys
from dask.distributed import LocalCluster
from ttr_core.cli import simulate as simulate_cli

with LocalCluster(
    n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
) as cluster:
    argv = [*sys.argv[1:], "--scheduler", cluster.scheduler_address, "--chunk-size", "3"]
    sys.exit(simulate_cli.main(argv))
"""


def test_on_a_dask_scheduler(capsys: pytest.CaptureFixture[str]) -> None:
    import subprocess
    import sys

    importlib.import_module("dask.distributed")  # the [dask] extra, in [test]
    run = subprocess.run(
        [sys.executable, "-c", DASK_RUN, *BASE],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    out = run.stdout
    assert "on a Dask cluster (2 worker threads)" in out
    simulate_cli.main([*BASE, "--workers", "1"])
    local = capsys.readouterr().out
    assert out.split("\n12 games in")[0] == local.split("\n12 games in")[0]
