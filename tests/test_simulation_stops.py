"""Clean stops of ``ttr simulate`` and of ``simulate``'s process pool, against real
processes: SIGTERM, SIGINT (to the whole group, as Ctrl-C sends it) and a killed
parent leave no worker running, and a per-game table cut short is left only under
its ``.partial`` name (docs/bots.md, "Stopping a simulation").

The worker processes are found in /proc (children of the simulation's process,
recorded before the signal, with their start times so that a reused pid is not
taken for a survivor). Every wait is bounded, and a ``finally`` kills the whole
process group the test started, whatever happened."""

from __future__ import annotations

import csv
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pytest

from ttr_core.cli import simulate as simulate_cli
from ttr_core.simulation import TABLE_COLUMNS, TableWriter, simulate, write_table

pytestmark = [
    pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning"),
    pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="finds processes in /proc"),
]

#: Long enough to be still running when signalled (tens of seconds on 2 cores);
#: small chunks so that rows reach the table early.
LONG = [
    "--map",
    "newyork",
    "--players",
    "2",
    "--agents",
    "route,random",
    "--games",
    "50000",
    "--chunk-size",
    "10",
    "--workers",
    "2",
    "--no-progress",
]

#: The longest wait for the simulation to start, and for its processes to go.
START_WITHIN = 30.0
GONE_WITHIN = 5.0


def _stat(pid: int) -> tuple[int, str, int] | None:
    """(parent pid, state, start time) of process ``pid``, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    return int(fields[1]), fields[0], int(fields[19])


def _children(parent: int) -> dict[int, int]:
    """The live children of ``parent``: pid → start time."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[0] == parent and stat[1] != "Z":
                found[int(entry)] = stat[2]
    return found


def _workers(parent: int) -> dict[int, int]:
    """The worker processes among the children of ``parent``."""
    found = {}
    for pid, started in _children(parent).items():
        with suppress(OSError):
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found[pid] = started
    return found


def _alive(processes: dict[int, int]) -> list[int]:
    """Which of ``processes`` (pid → start time) still run (a zombie has ended)."""
    alive = []
    for pid, started in processes.items():
        stat = _stat(pid)
        if stat is not None and stat[2] == started and stat[1] != "Z":
            alive.append(pid)
    return alive


def _wait_gone(processes: dict[int, int], within: float = GONE_WITHIN) -> list[int]:
    deadline = time.monotonic() + within
    while _alive(processes) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _alive(processes)


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as stream:
        return list(csv.DictReader(stream))


@contextmanager
def _running(argv: list[str], cwd: Path, table: Path | None) -> Iterator[subprocess.Popen[str]]:
    """A process started in a session (a process group) of its own, killed with
    its whole group on the way out; entered once its workers run and, given a
    table, games have reached it."""
    process = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + START_WITHIN
        while True:
            assert process.poll() is None, f"ended early: {process.communicate()}"
            ready = len(_children(process.pid)) >= 3  # 2 workers and the resource tracker
            if ready and table is not None:
                # Games have reached the table (under whichever name).
                written = [p.stat().st_size for p in table.parent.iterdir()]
                ready = bool(written) and max(written) > 4096
            if ready:
                break
            assert time.monotonic() < deadline, "the simulation did not get going"
            time.sleep(0.05)
        yield process
    finally:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        try:
            process.communicate(timeout=GONE_WITHIN)
        except subprocess.TimeoutExpired:
            process.kill()


def _simulate(table: Path) -> list[str]:
    return [sys.executable, "-m", "ttr_core", "simulate", *LONG, "--out", str(table)]


def _exit(process: subprocess.Popen[str]) -> tuple[int, str]:
    _, err = process.communicate(timeout=GONE_WITHIN)
    return process.returncode, err


def _check_cut_short(table: Path) -> None:
    """Nothing at the final name; whole rows, games in order, under ``.partial``."""
    partial = table.with_name(table.name + ".partial")
    assert not table.exists()
    assert sorted(p.name for p in table.parent.iterdir()) == [partial.name]
    rows = _rows(partial)
    assert rows and tuple(rows[0]) == TABLE_COLUMNS
    assert all(None not in row and None not in row.values() for row in rows)
    games = len(rows) // 2
    assert [int(r["game"]) for r in rows] == [g for g in range(games) for _ in range(2)]


def test_sigterm_ends_the_workers_and_marks_the_table_cut_short(tmp_path: Path) -> None:
    table = tmp_path / "out" / "games.csv"
    table.parent.mkdir()
    with _running(_simulate(table), tmp_path, table) as process:
        workers = _children(process.pid)
        process.send_signal(signal.SIGTERM)  # the parent alone, as `kill PID` does
        status, err = _exit(process)
        assert _wait_gone(workers) == []
    assert status == 128 + signal.SIGTERM
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ttr simulate: stopped by SIGTERM")
    assert "games.csv.partial" in lines[0]
    _check_cut_short(table)


def test_sigint_to_the_group_ends_the_workers_quietly(tmp_path: Path) -> None:
    table = tmp_path / "out" / "games.csv"
    table.parent.mkdir()
    with _running(_simulate(table), tmp_path, table) as process:
        workers = _children(process.pid)
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C on a terminal does
        status, err = _exit(process)
        assert _wait_gone(workers) == []
    assert status == 130
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ttr simulate: interrupted"), err
    _check_cut_short(table)


def test_the_workers_go_on_their_own_when_the_parent_is_killed(tmp_path: Path) -> None:
    table = tmp_path / "out" / "games.csv"
    table.parent.mkdir()
    with _running(_simulate(table), tmp_path, table) as process:
        workers = _children(process.pid)
        process.kill()
        process.wait(timeout=GONE_WITHIN)
        assert _wait_gone(workers) == []
    # Killed, nothing could finish the file: it can end in a half row, but it is
    # only under the .partial name.
    assert not table.exists()
    assert table.with_name("games.csv.partial").stat().st_size > 0


def test_the_library_pool_ends_its_workers_on_ctrl_c(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import time
        from ttr_core.simulation import simulate
        try:
            # Chunks of many seconds: the workers are in the middle of one.
            simulate("newyork", 2, ["route", "random"], 50000, workers=2, chunk_size=5000)
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            time.sleep(60)  # still running: its workers must be gone already
        """
    )
    with _running([sys.executable, "-c", script], tmp_path, None) as process:
        deadline = time.monotonic() + START_WITHIN
        while len(workers := _workers(process.pid)) < 2:  # (not the resource tracker)
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(0.3)
        os.killpg(process.pid, signal.SIGINT)
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], GONE_WITHIN)
        assert ready and process.stdout.readline() == "interrupted\n"
        assert _wait_gone(workers) == []
        assert process.poll() is None
        process.kill()
        _, err = process.communicate(timeout=GONE_WITHIN)
    assert "Traceback" not in err  # the workers ignore SIGINT: the parent stops them


def test_the_library_pool_workers_go_when_its_parent_is_killed(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        from ttr_core.simulation import simulate
        # Chunks of many seconds: a worker would not even notice the pipe closing.
        simulate("newyork", 2, ["route", "random"], 50000, workers=2, chunk_size=5000)
        """
    )
    with _running([sys.executable, "-c", script], tmp_path, None) as process:
        workers = _children(process.pid)
        time.sleep(1.0)  # into their first chunks
        process.kill()
        process.wait(timeout=GONE_WITHIN)
        assert _wait_gone(workers) == []


def test_a_complete_run_leaves_the_table_at_its_name_and_nothing_else(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "games.csv").write_text("an older table\n", encoding="utf-8")
    argv = [*LONG, "--games", "30", "--out", str(out / "games.csv")]
    argv += ["--records", str(out / "games.jsonl")]
    done = subprocess.run(
        [sys.executable, "-m", "ttr_core", "simulate", *argv],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == ["games.csv", "games.jsonl"]
    assert len(_rows(out / "games.csv")) == 60
    assert len((out / "games.jsonl").read_text(encoding="utf-8").splitlines()) == 30


def test_a_run_that_fails_leaves_no_table_at_the_final_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = tmp_path / "games.csv"
    table.write_text("an older table\n", encoding="utf-8")
    argv = ["--map", "newyork", "--players", "9", "--agents", "route", "--games", "4"]
    argv += ["--workers", "1", "--out", str(table), "--records", str(tmp_path / "g.jsonl")]
    assert simulate_cli.main(argv) == 2  # refused before any game, the table opened
    assert list(tmp_path.iterdir()) == []  # no game: no .partial either
    assert ".partial" not in capsys.readouterr().err


def test_parquet_is_written_the_same_way(tmp_path: Path) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    games = simulate("newyork", 2, ["random"], 6, workers=1, per_game=True).games
    path = tmp_path / "games.parquet"
    with pytest.raises(KeyboardInterrupt), TableWriter(path) as out:
        for game in games[:4]:
            out.add(game)
        raise KeyboardInterrupt
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.parquet.partial"]
    # Stopped by an exception, the file is finished: readable, with the rows so far.
    assert pq.read_table(tmp_path / "games.parquet.partial").num_rows == 8
    write_table(games, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.parquet"]
    assert pq.read_table(path).num_rows == 12


def test_a_csv_writer_stopped_by_an_error_keeps_its_rows_under_partial(tmp_path: Path) -> None:
    games = simulate("newyork", 2, ["random"], 3, workers=1, per_game=True).games
    path = tmp_path / "games.csv"
    writer = TableWriter(path)
    assert writer.partial_path == str(path) + ".partial"
    for game in games:
        writer.add(game)
    writer.abort()
    writer.abort()  # idempotent
    assert not path.exists() and len(_rows(tmp_path / "games.csv.partial")) == 6
    with TableWriter(path) as out:
        out.add(games[0])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.csv"]


def test_a_stopped_pool_leaves_none_of_its_threads_running() -> None:
    """The pool's own threads have ended when a stop returns: left running, the
    manager thread races concurrent.futures' exit hook on its wake-up pipe (no
    lock on Python 3.11), and ``ttr simulate`` stopped by SIGTERM once printed
    an ``OSError: handle is closed`` traceback under its one-line message."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor

    from ttr_core.simulation import running

    before = set(threading.enumerate())
    pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"))
    futures = [pool.submit(time.sleep, 60) for _ in range(4)]
    # Both workers started, each in the middle of a task (a spawned worker takes
    # well under a second to start and fetch one).
    deadline = time.monotonic() + START_WITHIN
    while len(_workers(os.getpid())) < 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(1.0)
    running._stop_pool(pool)
    left = [thread.name for thread in threading.enumerate() if thread not in before]
    assert left == []
    assert all(future.done() for future in futures)
