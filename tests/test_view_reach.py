"""Caches a view cannot reach (issue 24, finding 6): a view carries the shared
:class:`~ttr_core.Board`, and nothing the board leads to may hold a position of
another game played on it in the same process.

Game A is played on a shared built-in board (by the built-in agents, with the
observation encoders, action ids and drawing used on the way, so that every
cache a board has is filled), then game B starts on the same board and its
view, its legal actions and an agent deciding on them are walked: the view
with :func:`ttr_core.checking.probes.reachable`, then everything those values hold
(``gc.get_referents``, boards and rule sets entered too, weak references
followed). The walk does not go through an import: modules, classes and
functions' globals are where it stops, since anything a module keeps is
reachable by importing it anyway (in-process code can read any object; a view
must not *carry* another game). Before the fix, ``board.derived``'s action
tables kept the owners tuple of every recent position of every game.
"""

from __future__ import annotations

import gc
import random
import sys
import types
import warnings
import weakref
from collections.abc import Iterator, Sequence

import attrs
import pytest

import ttr_core
from ttr_core import Board, GameState, Pending, PlayerView
from ttr_core.agents import AGENTS, Agent, make_agent
from ttr_core.checking.probes import reachable
from ttr_core.observation import encoder_for_view
from ttr_core.render import svg
from ttr_core.rules.kernel.tables import CLAIMABLE

from .helpers import new_started
from .test_claimable_routes import afresh

#: (map, players, variants): every built-in map; Nederland with tolls and the
#: neutral player, whose claims are recorded through ``claim_for``.
CONFIGS: list[tuple[str, int, tuple[str, ...] | None]] = [
    ("newyork", 3, None),
    ("nederland", 2, ("tolls", "neutral")),
    ("usa", 4, None),
    ("amsterdam", 2, None),
]
IDS = [f"{m}-{p}" + ("-" + "+".join(v) if v else "") for m, p, v in CONFIGS]

#: Actions of game A: enough for several claims, few enough to keep the test fast.
ACTIONS = 120


def shared_board(name: str) -> Board:
    """The built-in board every game of ``name`` in this process plays on."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        return ttr_core.load_map(name)


def to_move(state: GameState) -> int:
    seat = state.current_player
    assert seat is not None
    return seat


def play_a(board: Board, players: int, variants: Sequence[str] | None) -> list[GameState]:
    """Game A's states, played by the built-in agents (each on its seat's views)."""
    state = ttr_core.new_game(board, players, seed=2024, variants=variants)
    names = list(AGENTS)
    agents = [make_agent(names[seat % len(names)]) for seat in range(players)]
    rng = random.Random(7)
    states = [state]
    for _ in range(ACTIONS):
        if state.is_over:
            break
        seat = to_move(state)
        view = ttr_core.player_view(state, seat)
        legal = ttr_core.legal_actions(state)
        encoder_for_view(view).encode(view)
        if not variants:  # variant actions have no action ids
            ttr_core.legal_action_ids(state)
        state = ttr_core.apply(state, agents[seat].act(view, legal, rng))
        states.append(state)
    svg(state)
    return states


def _module_dicts() -> set[int]:
    return {id(vars(m)) for m in list(sys.modules.values()) if isinstance(m, types.ModuleType)}


class Walk:
    """Everything ``roots`` hold, without going through an import; :meth:`trail`
    tells how a value was reached (for the failure message)."""

    def __init__(self, *roots: object) -> None:
        self.roots = roots
        self.parent: dict[int, object] = {}

    def __iter__(self) -> Iterator[object]:
        stop = _module_dicts()
        seen: set[int] = set()
        todo: list[object] = [v for root in self.roots for _, v in reachable(root, "root")]
        starts = {id(v) for v in todo}
        while todo:
            value = todo.pop()
            if id(value) in seen:
                continue
            seen.add(id(value))
            yield value
            if isinstance(value, types.ModuleType | type) or id(value) in stop:
                continue
            held = gc.get_referents(value)
            if isinstance(value, weakref.ref) and value() is not None:
                held.append(value())
            for item in held:
                if id(item) not in seen and id(item) not in starts:
                    self.parent.setdefault(id(item), value)
            todo.extend(held)

    def trail(self, value: object) -> str:
        names = [type(value).__name__]
        while id(value) in self.parent and len(names) < 12:
            value = self.parent[id(value)]
            names.append(type(value).__name__)
        return " <- ".join(names)


def unclaimed_bits(owners: tuple[int, ...]) -> int:
    return sum(1 << rid for rid, owner in enumerate(owners) if owner == -1)


class GameA:
    """What of game A a walk must not find: its states and owners tuples by
    identity; its owners tuples with claims, and the unclaimed routes of those
    with three claims or more (as bits, the way the engine keeps them), by value."""

    def __init__(self, states: list[GameState]) -> None:
        assert states[-1].owners.count(-1) <= len(states[-1].owners) - 3, "A claimed too little"
        self.states = states  # kept alive: their ids stay theirs
        self.routes = len(states[0].owners)
        self.ids = {id(s) for s in states}
        self.ids |= {id(s.owners) for s in states if s.owners.count(-1) < len(s.owners)}
        self.ids |= {id(s.players) for s in states}
        self.owners = {s.owners for s in states if s.owners.count(-1) < len(s.owners)}
        self.bits = {
            unclaimed_bits(s.owners) for s in states if s.owners.count(-1) <= len(s.owners) - 3
        }

    def check(self, walk: Walk, seen_from: str) -> int:
        """The number of values walked; fails on the first of A's found."""
        count = 0
        for value in walk:
            count += 1
            what = None
            if id(value) in self.ids:
                what = f"a {type(value).__name__} of game A"
            elif type(value) is tuple and len(value) == self.routes and value in self.owners:
                what = "game A's route owners"
            elif type(value) is int and value in self.bits:
                what = "game A's unclaimed routes (as bits)"
            if what is not None:
                pytest.fail(f"{seen_from} reaches {what}: {walk.trail(value)}")
        return count


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
def test_a_view_of_one_game_reaches_nothing_of_another_on_the_same_board(
    map: str, players: int, variants: Sequence[str] | None
) -> None:
    board = shared_board(map)
    a = GameA(play_a(board, players, variants))
    b = ttr_core.new_game(board, players, seed=99, variants=variants)
    view = ttr_core.player_view(b, to_move(b))
    assert any(value is board for _, value in reachable(view)), "the view carries the board"
    found = a.check(Walk(view), "a view of game B")
    assert found > 1000  # the walk did enter the board's caches
    # Game A's positions are still cached in the process, out of the view's reach.
    kept = {id(entry[0]) for entry in list(CLAIMABLE.values())}
    assert kept & a.ids


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
@pytest.mark.parametrize("style", list(AGENTS))
def test_an_agent_of_one_game_reaches_nothing_of_another_on_the_same_board(
    map: str, players: int, variants: Sequence[str] | None, style: str
) -> None:
    board = shared_board(map)
    a = GameA(play_a(board, players, variants))
    b = ttr_core.new_game(board, players, seed=99, variants=variants)
    agent: Agent = make_agent(style)
    rng = random.Random(1)
    for _ in range(3):  # a few decisions of B: the agent keeps what it learns
        view: PlayerView = ttr_core.player_view(b, to_move(b))
        legal = ttr_core.legal_actions(b)
        a.check(Walk(view, legal, agent, rng), f"agent {style!r} deciding in game B")
        b = ttr_core.apply(b, agent.act(view, legal, rng))
    a.check(Walk(agent), f"agent {style!r} after its decisions in game B")


def test_what_is_kept_for_an_owners_tuple_serves_its_own_configuration_only() -> None:
    """The cache is the engine's, for every board and player count: an entry
    worked out for 2 seats is not taken for the same owners tuple in a 4-seat
    game (it has masks for 2 seats; taken, seat 3's listing failed)."""
    two = new_started(players=2)
    route = next(r for r in two.board.routes if r.partner is not None)
    owners = tuple(1 if r == route.id else o for r, o in enumerate(two.owners))
    two = attrs.evolve(two, owners=owners)
    assert ttr_core.legal_actions(two) == afresh(two)
    four = attrs.evolve(new_started(players=4), owners=owners, pending=Pending("turn", 3))
    assert ttr_core.legal_actions(four) == afresh(four)
