"""Running a simulation: the games in chunks on the local cores (a process
pool whose workers end with the simulation) or a Dask cluster, with progress,
the results collected in order.
"""

from __future__ import annotations

import ctypes
import importlib
import math
import multiprocessing
import multiprocessing.connection
import os
import pickle
import queue
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any

import attrs

from ttr_core.agents import AGENTS, Agent, AgentFactory, make_agent
from ttr_core.data.messages import to_json
from ttr_core.data.records import record_of
from ttr_core.errors import GeneratedTicketsWarning
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.fingerprint import map_fingerprint
from ttr_core.model.board import Board
from ttr_core.rules.setup import new_game
from ttr_core.simulation.games import (
    _STATE_LOOPHOLES,
    GameResult,
    SimulationError,
    game_seed,
    play_game,
    seat_agents,
)
from ttr_core.simulation.summary import SimulationResult, _Job, _summary, _Tally

__all__ = ["ProgressCallback", "simulate"]


@attrs.frozen
class _Chunk:
    """What a chunk of games gives back."""

    start: int
    tally: _Tally
    games: tuple[GameResult, ...]


_BOARDS: dict[str, Board] = {}


#: Held while a board is loaded into _BOARDS: Dask runs chunks in threads, and
#: ``warnings.catch_warnings`` changes the filters of the whole process.
_BOARDS_LOCK = threading.Lock()


def _board(spec: str | Board) -> Board:
    """The board of a job, loaded once per process (a Board sent to a worker
    arrives as a new object each time: it is kept by its fingerprint)."""
    key = spec if isinstance(spec, str) else "fingerprint:" + map_fingerprint(spec)
    board = _BOARDS.get(key)
    if board is None:
        with _BOARDS_LOCK:
            board = _BOARDS.get(key)
            if board is None:
                with warnings.catch_warnings():
                    # Whoever started the simulation was told already.
                    warnings.simplefilter("ignore", GeneratedTicketsWarning)
                    board = load_map(spec) if isinstance(spec, str) else spec
                if len(_BOARDS) >= 16:
                    _BOARDS.clear()
                _BOARDS[key] = board
    return board


def _agent(factory: str | AgentFactory) -> Agent:
    return make_agent(factory) if isinstance(factory, str) else factory()


def _play_one(job: _Job, board: Board, index: int) -> GameResult:
    seed = game_seed(job.seed, index)
    order = seat_agents(job.names, job.players, index, job.rotate)
    names = tuple(job.names[i] for i in order)
    try:
        agents = [_agent(job.factories[i]) for i in order]
    except Exception as exc:
        raise SimulationError(
            f"game {index} (seed {seed}, agents {names}): making an agent failed: {exc!r}"
        ) from exc
    state = new_game(board, job.players, seed=seed, variants=job.variants, options=job.options)
    try:
        played = play_game(state, agents, seed, keep_history=job.records)
    except SimulationError as exc:
        raise SimulationError(f"game {index} (seed {seed}, agents {names}): {exc}") from exc
    final, scores, met = played.state, played.scores, played.loopholes
    record = None
    if job.records:
        options = {variant: dict(values) for variant, values in final.rules.options}
        record = to_json(record_of(final, played.history, options))
    return GameResult(
        index=index,
        seed=seed,
        agents=names,
        scores=scores.totals,
        winners=scores.winners,
        termination=str(final.termination) if final.termination else "unfinished",
        turns=final.turn,
        actions=played.actions,
        tickets_kept=tuple(len(p.tickets) for p in final.players),
        tickets_completed=tuple(sheet.tickets_completed for sheet in scores.sheets),
        cars=tuple(p.cars for p in final.players),
        routes=tuple(p.routes for p in final.players),
        loopholes=tuple(met.get(name, 0) for name in _STATE_LOOPHOLES),
        record=record,
    )


def _run_chunk(job: _Job, start: int, stop: int) -> _Chunk:
    """Play games ``start`` to ``stop - 1`` of ``job``."""
    board = _board(job.map)
    tally = _Tally(job.players, job.names)
    games = []
    for index in range(start, stop):
        game = _play_one(job, board, index)
        tally.add(game)
        if job.keep_games:
            games.append(game)
    return _Chunk(start, tally, tuple(games))


#: Called after each chunk with (games done, games in all): after each game
#: unless ``chunk_size`` is given or the games run on a Dask cluster.
ProgressCallback = Callable[[int, int], None]


def simulate(
    map: str | os.PathLike[str] | Board,
    players: int,
    agents: Sequence[str | AgentFactory],
    games: int,
    *,
    seed: int = 0,
    workers: int | None = None,
    client: Any = None,
    scheduler: str | None = None,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    rotate: bool = True,
    per_game: bool = False,
    records: bool = False,
    on_game: Callable[[GameResult], None] | None = None,
    progress: bool | ProgressCallback = False,
    chunk_size: int | None = None,
) -> SimulationResult:
    """Play ``games`` games of ``map`` with ``players`` seats between ``agents`` and
    summarise them.

    ``agents`` are built-in agent names (:data:`ttr_core.agents.AGENTS`) or
    agent factories (an agent class, or a picklable callable returning an
    agent); fewer than ``players`` are repeated to fill the seats. With
    ``rotate`` (the default) the lineup turns by one seat each game, so every
    agent plays every seat equally often. Game ``i`` uses the seed
    :func:`game_seed` ``(seed, i)``; ``variants`` and ``options`` are as for
    :func:`ttr_core.new_game`.

    Where the games run: ``workers`` processes on this machine (default:
    every core this process may use; 1 plays them in this process), or a
    Dask cluster through ``client`` (a ``dask.distributed.Client``) or
    ``scheduler`` (its address; the client is closed afterwards). Games are
    sent in chunks of ``chunk_size`` (default: at most 100, at least 8 chunks
    per worker when there are enough games; one game with ``progress`` on this
    machine, so that it moves per game). The summary does not depend on any of
    this.

    ``per_game`` keeps every :class:`GameResult` in ``result.games``;
    ``records`` adds each game's JSON record to it (and keeps them unless
    ``on_game`` takes them); ``on_game`` is called with each game's result,
    in game order, as they come in. ``progress``: ``True`` for a
    progress bar on standard error (with tqdm installed:
    ``pip install '.[sim]'`` in a clone of ttr-core), or a callable taking (games done,
    games in all).

    Raises :class:`SimulationError` for arguments that cannot be simulated
    or a game that could not be played, the errors of
    :func:`ttr_core.new_game` for a configuration that cannot be played, and
    ``ImportError`` for a Dask cluster without Dask installed.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise SimulationError(f"games must be a whole number of at least 1, not {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise SimulationError(f"seed must be a whole number, not {seed!r}")
    if chunk_size is not None and (
        isinstance(chunk_size, bool) or not isinstance(chunk_size, int) or chunk_size < 1
    ):
        raise SimulationError(f"chunk_size must be at least 1, not {chunk_size!r}")
    if not isinstance(agents, Sequence) or isinstance(agents, str) or not agents:
        # A sequence, not a set or a generator: the lineup's order is the seats'.
        raise SimulationError(
            f"agents must be a non-empty sequence (a list) of agent names or factories, "
            f"not {agents!r}"
        )
    agents = tuple(agents)
    for flag, value in (("rotate", rotate), ("per_game", per_game), ("records", records)):
        if not isinstance(value, bool):
            raise SimulationError(f"{flag} must be True or False, not {value!r}")
    if not isinstance(progress, bool) and not callable(progress):
        raise SimulationError(f"progress must be True, False or a callable, not {progress!r}")
    if on_game is not None and not callable(on_game):
        raise SimulationError(f"on_game must be a callable taking a GameResult, not {on_game!r}")
    if scheduler is not None and not isinstance(scheduler, str):
        raise SimulationError(f"scheduler must be a Dask scheduler address, not {scheduler!r}")
    if client is not None and not callable(getattr(client, "submit", None)):
        raise SimulationError(f"client must be a dask.distributed.Client, not {client!r}")
    board = map if isinstance(map, Board) else load_map(map)
    if isinstance(variants, str):
        new_game(board, players, seed=0, variants=variants)  # raises, saying what is expected
    given = None if variants is None else tuple(variants)
    first = new_game(board, players, seed=0, variants=given, options=options)
    names = tuple(_agent_name(spec) for spec in agents)
    if len(names) > players:
        raise SimulationError(f"{len(names)} agents for {players} seats: give at most {players}")
    _check_distinct(agents, names)
    option_values = first.rules.options
    keep = per_game or records or on_game is not None
    job = _Job(
        map=map if isinstance(map, str) and not os.path.exists(map) else board,
        players=players,
        factories=tuple(agents),
        names=names,
        seed=seed,
        variants=given,
        options=None if options is None else {k: dict(v) for k, v in options.items()},
        option_values=option_values,
        rotate=rotate,
        keep_games=keep,
        records=records,
    )
    dask_client = client
    own_client = False
    if dask_client is None and scheduler is not None:
        dask_client = _dask_client(scheduler)
        own_client = True
    try:
        if dask_client is not None:
            count = _dask_workers(dask_client)
            kind = "dask"
        else:
            count = _default_workers() if workers is None else workers
            if isinstance(count, bool) or not isinstance(count, int) or count < 1:
                raise SimulationError(f"workers must be at least 1, not {workers!r}")
            kind = "local" if count == 1 else "processes"
        if kind != "local":
            _check_picklable(job)
        size = chunk_size or max(1, min(100, math.ceil(games / (8 * count))))
        if progress is not False and chunk_size is None and kind != "dask":
            # A chunk reports when it is done: one game a chunk moves the bar per
            # game (a worker's round trip costs far less than a game).
            size = 1
        chunks = [(start, min(start + size, games)) for start in range(0, games, size)]
        kept = per_game or (records and on_game is None)
        collect = _Collector(job, games, kept, on_game, progress)
        started = time.perf_counter()
        with collect:
            if kind == "dask":
                _run_dask(dask_client, job, chunks, collect)
            elif kind == "processes" and len(chunks) > 1:
                _run_pool(min(count, len(chunks)), job, chunks, collect)
            else:
                for start, stop in chunks:
                    collect(_run_chunk(job, start, stop))
        seconds = time.perf_counter() - started
    finally:
        if own_client:
            dask_client.close()
    summary = _summary(collect.tally, job, board, first.rules.variants)
    return SimulationResult(summary, tuple(collect.games), count, kind, seconds)


def _agent_name(spec: object) -> str:
    """An agent's name in summaries: a built-in's name, a factory's ``name``
    attribute, else its ``__name__``, else its class's name (never an
    address: the same seed must give the same summary)."""
    if isinstance(spec, str):
        if spec not in AGENTS:
            raise SimulationError(f"no agent {spec!r}; the agents are {', '.join(AGENTS)}")
        return spec
    if not callable(spec):
        raise SimulationError(f"an agent must be a name or a factory, not {spec!r}")
    for name in (getattr(spec, "name", None), getattr(spec, "__name__", None)):
        if isinstance(name, str) and name:
            return name
    return type(spec).__name__


def _check_distinct(agents: Sequence[object], names: Sequence[str]) -> None:
    """Different agents must have different names: the summary counts by name."""
    seen: dict[str, object] = {}
    for spec, name in zip(agents, names, strict=True):
        if seen.setdefault(name, spec) != spec:
            raise SimulationError(
                f"two different agents are both named {name!r}: the summary counts agents by "
                "name, so give each a name of its own (a 'name' attribute on the factory)"
            )


def _check_picklable(job: _Job) -> None:
    """Worker processes and Dask receive the job pickled: say so plainly if it cannot be."""
    try:
        pickle.dumps(job)
    except Exception as exc:
        raise SimulationError(
            "the agents (or the map) cannot be sent to worker processes: an agent factory "
            "must be a class or function defined at the top level of an importable module, "
            f"not a lambda or a local class (or play in this process: workers=1); {exc!r}"
        ) from exc


def _default_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class _Collector:
    """Merges chunks as they come: the tally at once; games in game order."""

    def __init__(
        self,
        job: _Job,
        total: int,
        keep: bool,
        on_game: Callable[[GameResult], None] | None,
        progress: bool | ProgressCallback,
    ) -> None:
        self.tally = _Tally(job.players, job.names)
        self.games: list[GameResult] = []
        self.total = total
        self.keep = keep
        self.on_game = on_game
        self.waiting: dict[int, tuple[GameResult, ...]] = {}
        self.next = 0
        self.done = 0
        self.report: ProgressCallback | None = None
        self.bar: Any = None
        if callable(progress):
            self.report = progress
        elif progress:
            self.bar = _progress_bar(total)

    def __enter__(self) -> _Collector:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.close()

    def __call__(self, chunk: _Chunk) -> None:
        self.tally.merge(chunk.tally)
        if chunk.games:
            self.waiting[chunk.start] = chunk.games
            while self.next in self.waiting:
                ready = self.waiting.pop(self.next)
                for game in ready:
                    if self.on_game is not None:
                        self.on_game(game)
                    if self.keep:
                        self.games.append(game)
                self.next += len(ready)
        self.done += chunk.tally.games
        if self.bar is not None:
            self.bar.update(chunk.tally.games)
        if self.report is not None:
            self.report(self.done, self.total)


def _progress_bar(total: int) -> Any:
    """A tqdm bar on standard error, or ``None`` without tqdm."""
    try:
        tqdm = importlib.import_module("tqdm")
    except ImportError:
        return None
    return tqdm.tqdm(total=total, unit="game", smoothing=0.05, dynamic_ncols=True)


def _run_pool(
    workers: int, job: _Job, chunks: Sequence[tuple[int, int]], collect: _Collector
) -> None:
    """The chunks in a pool of fresh (spawned) processes: the same on every platform,
    and safe beside the threads of a progress bar. Whatever stops the loop
    (Ctrl-C, a SIGTERM handler's exception, a failed game) ends the workers
    before it propagates; each worker also ends by itself if this process dies."""
    context = multiprocessing.get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=context, initializer=_worker_start, initargs=(os.getpid(),)
    )
    # Finished chunks arrive through done-callbacks, a few in flight per worker:
    # as_completed over every chunk holds all their locks at once, and a Ctrl-C
    # landing while it takes them leaves them held, so that the pool's own thread
    # then blocks on them forever and the process never exits.
    finished: queue.SimpleQueue[Future[_Chunk]] = queue.SimpleQueue()
    waiting = iter(chunks)

    def submit() -> bool:
        for start, stop in waiting:
            pool.submit(_run_chunk, job, start, stop).add_done_callback(finished.put)
            return True
        return False

    try:
        with _sigint_held():  # the workers are spawned by the first submits
            running = sum(1 for _ in range(_IN_FLIGHT * workers) if submit())
        while running:
            try:
                future = finished.get(timeout=_WATCH_EVERY)  # a timeout: Ctrl-C everywhere
            except queue.Empty:
                continue
            collect(future.result())
            running += submit() - 1
    except BaseException:
        _stop_pool(pool)
        raise
    pool.shutdown()


#: Chunks sent ahead per worker: enough to keep it busy, few enough to cancel fast.
_IN_FLIGHT = 3


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold SIGINT back in this thread (POSIX) while workers are spawned: they
    start with it blocked too, so a Ctrl-C sent to the process group cannot
    break their start-up before :func:`_worker_start` ignores it; this process
    gets it as soon as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


#: How long stopped workers get to end on SIGTERM before they are killed.
_STOP_GRACE = 2.0


def _stop_pool(pool: ProcessPoolExecutor) -> None:
    """End ``pool`` now: cancel the chunks not started and end the workers in the
    middle of theirs (``shutdown`` alone would wait for every chunk started)."""
    # The executor has no public way to end its workers before Python 3.14
    # (terminate_workers); its process table is the one handle on them.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)  # shutdown forgets it
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    deadline = time.monotonic() + _STOP_GRACE
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join(_STOP_GRACE)
    # The pool's manager thread, left running by shutdown(wait=False), now finds
    # its workers gone and closes its wake-up pipe. Let it finish here: were the
    # interpreter to exit meanwhile, concurrent.futures' exit hook would write to
    # that pipe as the thread closes it (no lock on Python 3.11) and print an
    # "OSError: handle is closed" traceback under the run's one-line message.
    if manager is not None:
        manager.join(_STOP_GRACE)


#: ``prctl`` option: the signal a process gets when its parent dies (Linux).
_PR_SET_PDEATHSIG = 1


#: How often a worker's watchdog looks whether its parent still runs, in seconds.
_WATCH_EVERY = 0.5


def _worker_start(parent: int) -> None:
    """First thing in each worker process: make it end with ``parent``, its
    starter, however that ends (a SIGKILL leaves it no chance to end them)."""
    # Ctrl-C on a terminal signals the whole process group: the parent stops the
    # workers, which would otherwise each print a KeyboardInterrupt traceback.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked while it was spawned (_sigint_held)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # An ignored SIGTERM would survive into the worker and defeat terminate().
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if sys.platform.startswith("linux"):
        with suppress(OSError, AttributeError):  # no prctl: the watchdog still works
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(
                ctypes.c_int(_PR_SET_PDEATHSIG),
                ctypes.c_ulong(signal.SIGTERM),
                ctypes.c_ulong(0),
                ctypes.c_ulong(0),
                ctypes.c_ulong(0),
            )
    if os.getppid() != parent:  # it died before prctl could take effect
        os._exit(1)
    watchdog = threading.Thread(
        target=_watch_parent, args=(parent,), name="ttr-simulate-watchdog", daemon=True
    )
    watchdog.start()


def _watch_parent(parent: int) -> None:
    """End this worker once ``parent`` has ended: the portable way (prctl is Linux's
    only). A spawned worker's parent sentinel becomes ready when the parent ends,
    on every platform; on POSIX the parent pid also changes (re-parenting)."""
    started_by = multiprocessing.parent_process()
    sentinel = None if started_by is None else started_by.sentinel
    while True:
        if sentinel is None:
            time.sleep(_WATCH_EVERY)
        elif multiprocessing.connection.wait([sentinel], timeout=_WATCH_EVERY):
            break
        if os.name == "posix" and os.getppid() != parent:
            break
    os._exit(1)


def _dask() -> Any:
    try:
        return importlib.import_module("dask.distributed")
    except ImportError as exc:
        raise ImportError(
            "running on a Dask cluster needs dask.distributed: pip install '.[dask]' in a clone "
            "of ttr-core (pip install 'ttr-core[dask]' once it is on the package index)"
        ) from exc


def _dask_client(address: str) -> Any:
    client_class = _dask().Client
    try:
        return client_class(address)
    except (OSError, ValueError, TypeError) as exc:  # a bad address, no scheduler there
        raise SimulationError(f"cannot reach the Dask scheduler at {address!r}: {exc}") from exc


def _dask_workers(client: Any) -> int:
    threads = client.nthreads()
    return max(1, sum(threads.values())) if isinstance(threads, Mapping) else 1


def _run_dask(
    client: Any, job: _Job, chunks: Sequence[tuple[int, int]], collect: _Collector
) -> None:
    """The chunks as Dask tasks; the job (with its board) sent to the workers once."""
    distributed = _dask()
    shared = client.scatter(job, broadcast=True, hash=False)
    futures = [client.submit(_run_chunk, shared, start, stop, pure=False) for start, stop in chunks]
    try:
        for future in distributed.as_completed(futures):
            collect(future.result())
            future.release()
    except BaseException:
        client.cancel(futures)
        raise
