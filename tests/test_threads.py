"""Thread safety (docs/threads.md): many threads using the public functions at
once, on shared boards whose caches start cold or fill with configurations
not seen before, get exactly what one thread alone gets.

Each test runs its work in :data:`THREADS` threads with the interpreter
switching threads as often as it can (``sys.setswitchinterval(1e-6)``), then
runs the same work again in this thread and compares every result. Before the
caches were locked, the first test failed in about one call of ten with
``KeyError`` and ``RuntimeError: dictionary changed size during iteration``
from the rule-set cache.
"""

from __future__ import annotations

import functools
import pickle
import random
import threading
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import ttr_core
from ttr_core import Board, GameState, agents
from ttr_core.mapfiles.reading import _builtin_dir
from ttr_core.observation import observation_encoder
from ttr_core.simulation import simulate

THREADS = 8


#: One thread's work: calls whose results are compared one by one.
Work = Callable[[int], Sequence[Callable[[], Any]]]


def _outcome(call: Callable[[], Any]) -> Any:
    """What ``call`` returns, or the exception it raises (type and message)."""
    try:
        return call()
    except Exception as exc:  # compared and reported with the rest
        return f"{type(exc).__name__}: {exc}"


def _in_threads(work: Work) -> list[list[Any]]:
    """The outcome of each call of ``work(k)`` for each thread number ``k``, the
    calls of each ``k`` made in order in a thread of their own, the
    :data:`THREADS` threads started together."""
    results: list[list[Any]] = [[] for _ in range(THREADS)]
    start = threading.Barrier(THREADS)

    def run(k: int) -> None:
        calls = work(k)
        start.wait()
        results[k] = [_outcome(call) for call in calls]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def _alone(work: Work) -> list[list[Any]]:
    """The same calls made in this thread alone."""
    return [[_outcome(call) for call in work(k)] for k in range(THREADS)]


def _compare(threaded: list[list[Any]], alone: list[list[Any]]) -> None:
    """Every call's outcome in the threads equal to its outcome alone."""
    assert [len(found) for found in threaded] == [len(found) for found in alone]
    wrong = [
        (k, i, got)
        for k, (mine, theirs) in enumerate(zip(threaded, alone, strict=True))
        for i, (got, want) in enumerate(zip(mine, theirs, strict=True))
        if got != want
    ]
    calls = sum(len(found) for found in alone)
    shown = "\n".join(f"thread {k} call {i}: {got!s:.200}" for k, i, got in wrong[:5])
    assert not wrong, f"{len(wrong)} of {calls} calls differ from one thread's:\n{shown}"


# -- new games with option sets not seen before, on the shared built-in boards ----------

#: New games per thread, each with options never used before (thread
#: ``k``, call ``i``): every call resolves a rule set of its own and the
#: per-board cache keeps evicting.
NEW_GAMES = 250


def _new_game_options(name: str, k: int, i: int) -> dict[str, dict[str, int]]:
    n = 1 + k * NEW_GAMES + i  # unique per call, over every thread
    if name == "nederland":
        return {"tolls": {"start_value": 10000 - n % 9000, "loan_penalty": 700 + n}}
    if name == "usa":
        return {"longest_route": {"bonus": 1000 + n}}
    return {"merchandise": {"cards": 1000 + n}}


MAPS = ("nederland", "nederland", "usa", "amsterdam")


def _new_game(name: str, k: int, i: int) -> Any:
    """A new game's rule options and JSON text."""
    players = 2 + (k + i) % 3
    state = ttr_core.new_game(name, players, seed=i, options=_new_game_options(name, k, i))
    return state.rules.options, ttr_core.to_json(state)


def _new_games(k: int) -> list[Callable[[], Any]]:
    return [functools.partial(_new_game, MAPS[(k + i) % len(MAPS)], k, i) for i in range(NEW_GAMES)]


def test_new_games_with_unseen_options_from_many_threads(busy_switching: None) -> None:
    with warnings.catch_warnings():  # amsterdam's generated tickets, once, here
        warnings.simplefilter("ignore")
        for name in set(MAPS):
            ttr_core.load_map(name)
    threaded = _in_threads(_new_games)
    _compare(threaded, _alone(_new_games))


# -- whole games on boards whose caches start cold ---------------------------------------

#: Games each thread plays to the end, and a player view and save every so many moves.
GAMES = 3
EVERY = 16


def _game(board: Board | str, players: int, seed: int, options: Any, agent: bool) -> list[Any]:
    """One game played to the end with every public function along the way:
    what each returns, as plain values (JSON text, ids, names)."""
    state = ttr_core.new_game(board, players, seed=seed, options=options)
    rng = random.Random(seed)
    bots = [agents.AGENTS["route"]() for _ in range(players)] if agent else []
    encoder = observation_encoder(state.board, players, state.rules.variants, options)
    found: list[Any] = [ttr_core.map_fingerprint(state.board)]
    moves = 0
    while not ttr_core.is_over(state):
        legal = ttr_core.legal_actions(state)
        ids = ttr_core.legal_action_ids(state)
        assert state.pending is not None
        seat = state.pending.player
        if moves % EVERY == 0:
            view = ttr_core.player_view(state, seat)
            text = ttr_core.to_json(state)
            back: GameState = ttr_core.from_json(text, GameState, board=state.board)
            sheets = [ttr_core.to_json(sheet) for sheet in ttr_core.score_sheets(state)]
            found.append(
                (text, back == state, ttr_core.to_json(view), encoder.encode(view), sheets)
            )
        if bots:
            action = bots[seat].act(ttr_core.player_view(state, seat), legal, rng)
        else:
            action = legal[rng.randrange(len(legal))]
        found.append((ids, ttr_core.action_id(state, action)))
        state = ttr_core.apply(state, action)
        moves += 1
    found.append(ttr_core.to_json(ttr_core.final_scores(state)))
    found.append(ttr_core.to_json(state))
    return found


def _boards(tmp_path: Path) -> tuple[list[Board], str]:
    """Fresh boards of the built-in maps (nothing derived from them yet) and the
    path of a copy of nederland's file, never loaded before."""
    folder = _builtin_dir()
    with warnings.catch_warnings():  # amsterdam's generated tickets
        warnings.simplefilter("ignore")
        boards = [
            ttr_core.parse_map((folder / f"{name}.toml").read_text(encoding="utf-8"), name)
            for name in ("nederland", "usa", "newyork", "amsterdam")
        ]
    copy = tmp_path / "nederland-copy.toml"
    copy.write_text((folder / "nederland.toml").read_text(encoding="utf-8"), encoding="utf-8")
    return boards, str(copy)


def _games(boards: Sequence[Board | str]) -> Work:
    def work(k: int) -> list[Callable[[], Any]]:
        calls: list[Callable[[], Any]] = []
        for i in range(GAMES):
            board = boards[(k + i) % len(boards)]
            seed = 100 * k + i
            options = None
            if board is boards[0]:
                options = {"tolls": {"start_value": 20 + seed, "loan_penalty": 1 + seed % 7}}
            agent = i == 0 and k % 4 == 0
            calls.append(functools.partial(_game, board, 2 + seed % 3, seed, options, agent))
        return calls

    return work


def test_games_from_many_threads_on_cold_boards(tmp_path: Path, busy_switching: None) -> None:
    boards, copy = _boards(tmp_path)
    played: list[Board | str] = [*boards, copy]
    threaded = _in_threads(_games(played))
    _compare(threaded, _alone(_games(played)))


def test_a_file_loaded_by_many_threads_at_once_is_one_board(
    tmp_path: Path, busy_switching: None
) -> None:
    _, copy = _boards(tmp_path)
    loaded = _in_threads(lambda k: [functools.partial(ttr_core.load_map, copy)] * 20)
    assert all(isinstance(b, Board) for found in loaded for b in found), loaded
    assert len({id(board) for found in loaded for board in found}) == 1


# -- simulations run from many threads at once --------------------------------------------


def test_simulations_in_many_threads_give_one_threads_summaries(busy_switching: None) -> None:
    def work(k: int) -> list[Callable[[], Any]]:
        run = functools.partial(
            simulate, "newyork", 2, ["random", "route"], 4, seed=k % 2, workers=1, per_game=True
        )
        return [lambda: (run().summary, run().games)]

    _compare(_in_threads(work), _alone(work))


# -- processes: what pickling carries -----------------------------------------------------


def test_a_pickled_state_carries_its_board_by_value_and_json_shares_the_loaded_one() -> None:
    state = ttr_core.new_game("nederland", 3, seed=5, options={"tolls": {"start_value": 44}})
    following = ttr_core.apply(state, ttr_core.legal_actions(state)[0])
    clone = pickle.loads(pickle.dumps(state))
    assert clone == state and clone.rules == state.rules
    assert clone.board is not state.board  # a board of its own, with caches of its own
    assert ttr_core.map_fingerprint(clone.board) == ttr_core.map_fingerprint(state.board)
    action = ttr_core.legal_actions(clone)[0]
    assert ttr_core.apply(clone, action) == ttr_core.apply(state, action)
    first, second = pickle.loads(pickle.dumps([state, following]))  # pickled together
    assert first.board is second.board and first.rules is second.rules
    read: GameState = ttr_core.from_json(ttr_core.to_json(state), GameState)
    assert read == state and read.board is state.board and read.rules is state.rules
