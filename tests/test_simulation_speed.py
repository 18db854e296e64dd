"""The fast simulation loop plays exactly the games of the plain one (issue 23).

``play_game`` runs on a :class:`~ttr_core.Playout`, builds no view for an agent
that plays as :class:`~ttr_core.agents.RandomAgent`, reads the failure states
off the working state; ``player_view`` shares SeatViews and display names
between views of nearby positions; the heuristic agents reuse what one
decision worked out for the next (``Seen.keep``) and work their route costs
out in one pass. Each is checked here against a plain build from scratch:
the views of every decision of random games on every built-in map, whole
games of every built-in agent against the plain loop below (the loop of
``play_game`` before issue 23) played by agents that reuse nothing, failure
states forced, and views built from many threads switching as often as the
interpreter can.
"""

from __future__ import annotations

import random
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import GameState, PlayerView
from ttr_core.agents import AGENTS, Agent, HeuristicAgent, RandomAgent
from ttr_core.agents.seen import Seen
from ttr_core.hooks import calls
from ttr_core.model.actions import Action
from ttr_core.model.board import FrozenMap
from ttr_core.model.views import SeatView
from ttr_core.rules.views import _DISPLAYS, _SEATS, VIEW_CACHE_KEPT, player_view
from ttr_core.simulation import PlayedGame, play_game, state_loopholes
from ttr_core.simulation.games import _STATE_LOOPHOLES, _derive

#: (map, players, variants or None for the map's): every built-in map, Nederland
#: with its tolls and the neutral player.
MAPS: list[tuple[str, int, tuple[str, ...] | None]] = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("nederland", 2, ("tolls", "neutral")),
    ("nederland", 4, None),
    ("usa", 3, None),
    ("amsterdam", 3, None),
    ("europe", 3, None),
]
MAP_IDS = [f"{m}-{p}" + ("-" + "+".join(v) if v else "") for m, p, v in MAPS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


def plain_view(state: GameState, player: int) -> PlayerView:
    """``player_view`` as it was built before issue 23: everything from scratch."""
    pending = state.pending
    mine = pending is not None and pending.player == player
    names = state.board.card_names
    rules = state.rules
    variants = calls.run_player_view(rules, state, player) if rules.player_view else {}
    me = state.players[player]
    return PlayerView(
        viewer=player,
        board=state.board,
        current_player=state.current_player,
        pending=None if pending is None else str(pending.kind),
        hand=me.hand,
        tickets=me.tickets,
        offered=pending.offered if mine and pending is not None else (),
        min_keep=pending.min_keep if mine and pending is not None else 0,
        display=tuple(None if c is None else names[c] for c in state.display),
        deck_size=len(state.deck),
        discard_size=sum(state.discard),
        ticket_deck_size=len(state.ticket_deck),
        ticket_discard_size=len(state.ticket_discard),
        ticket_discard=state.ticket_discard,
        seats=tuple(
            SeatView(
                seat,
                p.hand.total,
                len(p.tickets),
                p.cars,
                p.routes,
                p.score,
                FrozenMap(
                    (name, min(k, held))
                    for name, k, held in zip(names, p.known, p.hand.counts, strict=False)
                    if k and held
                ),
            )
            for seat, p in enumerate(state.players)
        ),
        turn=state.turn,
        final_turns=state.final_turns,
        is_over=state.is_over,
        variants=FrozenMap(variants),
        others=ttr_core.rules.views.non_seat_owners(state),
        variant_names=rules.variants,
        options=rules.options,
        offer_size=0 if pending is None else len(pending.offered),
        offer_min_keep=0 if pending is None else pending.min_keep,
        start_offer_sizes=tuple(len(offer) for offer in state.start_offers),
        passes=state.passes,
        shuffles=state.shuffles,
        termination=state.termination,
        ply=state.ply,
        forfeit=state.forfeit,
        boxed_tickets_size=len(state.boxed_tickets),
    )


def random_states(
    map_name: str, players: int, variants: Sequence[str] | None, seed: int, most: int = 400
) -> Iterator[GameState]:
    """Every state of a random game (at most ``most`` actions)."""
    state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    chooser = random.Random(seed)
    yield state
    for _ in range(most):
        if state.pending is None:
            return
        legal = ttr_core.legal_actions(state)
        state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
        yield state


@pytest.mark.parametrize(("map_name", "players", "variants"), MAPS, ids=MAP_IDS)
def test_every_view_equals_a_build_from_scratch(
    map_name: str, players: int, variants: tuple[str, ...] | None
) -> None:
    views = 0
    for seed in range(3):
        for state in random_states(map_name, players, variants, seed):
            for seat in range(players):
                view = player_view(state, seat)
                assert view == plain_view(state, seat), (map_name, seed, state.ply, seat)
                # Equal and of the same kinds (a shared SeatView is a SeatView).
                assert [type(s) for s in view.seats] == [SeatView] * players
                assert attrs.asdict(view, recurse=False) == attrs.asdict(
                    plain_view(state, seat), recurse=False
                )
                views += 1
    assert views > 100 * players


def test_a_seat_view_is_kept_for_its_seat_and_board_only() -> None:
    """The same PlayerState object at another seat, or on a board naming its cards
    otherwise, is not given the SeatView kept for it."""
    state = ttr_core.new_game("newyork", 3, seed=4)
    first = state.players[0]
    twin = attrs.evolve(state, players=(first, first, first))
    for seat in range(3):
        assert player_view(twin, seat).seats == tuple(
            SeatView(s, first.hand.total, len(first.tickets), first.cars, (), first.score)
            for s in range(3)
        )
    assert [s.seat for s in player_view(twin, 1).seats] == [0, 1, 2]


def test_the_view_caches_are_bounded() -> None:
    for seed in range(6):
        for state in random_states("usa", 4, None, seed, most=300):
            player_view(state, 0)
    assert 0 < len(_SEATS) <= VIEW_CACHE_KEPT
    assert 0 < len(_DISPLAYS) <= VIEW_CACHE_KEPT


def test_views_from_many_threads_equal_a_build_from_scratch(busy_switching: None) -> None:
    games = [list(random_states("newyork", 3, None, seed, most=150)) for seed in range(4)]
    failures: list[str] = []

    def look(states: list[GameState], who: int) -> None:
        for _ in range(3):
            for state in states:
                for seat in range(3):
                    if player_view(state, seat) != plain_view(state, seat):
                        failures.append(f"thread {who}: ply {state.ply}, seat {seat}")
                        return

    threads = [threading.Thread(target=look, args=(games[i % len(games)], i)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sys.getswitchinterval() == pytest.approx(1e-6)
    assert not failures


# ---------------------------------------------------------------------------
# Whole games against the plain loop
# ---------------------------------------------------------------------------


def plain_play(state: GameState, agents: Sequence[Agent], seed: int) -> PlayedGame:
    """``play_game``'s loop before issue 23: the pure API, a view built from
    scratch for every decision, :func:`state_loopholes` on every state."""
    rngs = [random.Random(_derive("agent", seed, seat)) for seat in range(len(agents))]
    history: list[Action] = []
    met: Counter[str] = Counter()
    while state.pending is not None:
        seat = state.pending.player
        legal = ttr_core.legal_actions(state)
        met.update(state_loopholes(state, legal))
        action = agents[seat].act(plain_view(state, seat), legal, rngs[seat])
        assert action in legal
        state = ttr_core.apply(state, action)
        history.append(action)
    return PlayedGame(state, ttr_core.final_scores(state), len(history), tuple(history), dict(met))


def plain_agent(name: str) -> Agent:
    """The built-in agent ``name`` reusing nothing between decisions (no ``kept``)
    and asking its ``route_cost`` route by route: as the agents decided before
    issue 23."""
    cls = AGENTS[name]
    if not issubclass(cls, HeuristicAgent):
        return _Looking()
    route_cost = cls.route_cost

    class Plain(cls):  # type: ignore[valid-type,misc]
        def route_cost(self, seen: Seen, route: int) -> float:
            cost: float = route_cost(self, seen, route)
            return cost

    agent = Plain()
    agent.kept = None
    return agent


class _Looking(RandomAgent):
    """RandomAgent's choices, by an act of its own: it is given a view (and checks it)."""

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        assert isinstance(view, PlayerView) and view.current_player == view.viewer
        return super().act(view, legal, rng)


GAMES: list[tuple[str, int, tuple[str, ...] | None, tuple[str, ...], int]] = [
    ("newyork", 2, None, ("random",), 30),
    ("newyork", 2, None, ("route", "random"), 12),
    ("newyork", 4, None, ("hungry", "route", "long", "onestep"), 6),
    ("usa", 4, None, ("hungry", "route", "long", "onestep"), 2),
    ("usa", 3, None, ("random",), 6),
    ("nederland", 2, ("tolls", "neutral"), ("hungry", "onestep"), 3),
    ("nederland", 2, ("tolls", "neutral"), ("random", "long"), 3),
    ("amsterdam", 3, None, ("long", "random", "route"), 4),
    ("europe", 3, None, ("hungry", "route", "onestep"), 2),
    ("europe", 2, None, ("random",), 4),
]
GAME_IDS = [f"{m}-{p}-{'+'.join(a)}" for m, p, _, a, _ in GAMES]


def same_games(
    map_name: str,
    players: int,
    variants: tuple[str, ...] | None,
    lineup: tuple[str, ...],
    games: int,
    start: Any = None,
) -> int:
    """Play ``games`` games both ways; assert they are the same; the actions played."""
    actions = 0
    for index in range(games):
        seed = 1000 + index
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
        if start is not None:
            state = start(state)
        names = [lineup[(seat + index) % len(lineup)] for seat in range(players)]
        fast = play_game(state, [ttr_core.agents.make_agent(n) for n in names], seed)
        plain = plain_play(state, [plain_agent(n) for n in names], seed)
        assert fast.history == plain.history, (map_name, index, names)
        assert fast.state == plain.state
        assert fast.scores == plain.scores
        assert fast.actions == plain.actions
        assert fast.loopholes == plain.loopholes
        actions += fast.actions
    return actions


@pytest.mark.parametrize(
    ("map_name", "players", "variants", "lineup", "games"), GAMES, ids=GAME_IDS
)
def test_games_are_the_plain_loops_games(
    map_name: str,
    players: int,
    variants: tuple[str, ...] | None,
    lineup: tuple[str, ...],
    games: int,
) -> None:
    assert same_games(map_name, players, variants, lineup, games) > 40 * games


def _no_supply(state: GameState) -> GameState:
    """The game with no card left to draw beyond the display (E4) and three wilds
    shown that no reset can clear (E3)."""
    wild = state.board.wild
    display = (wild, wild, wild, *state.display[3:])
    return attrs.evolve(state, deck=(), discard=(0,) * len(state.discard), display=display)


def _no_tickets(state: GameState) -> GameState:
    return attrs.evolve(state, ticket_deck=(), ticket_discard=())


@pytest.mark.parametrize("start", [_no_supply, _no_tickets])
def test_failure_states_are_counted_as_state_loopholes_counts_them(start: Any) -> None:
    same_games("newyork", 2, None, ("random", "route"), 4, start)
    played = play_game(start(ttr_core.new_game("newyork", 2, seed=3)), [RandomAgent()] * 2, 3)
    assert played.loopholes, "the forced failure states are counted"
    assert set(played.loopholes) <= set(_STATE_LOOPHOLES)


def test_the_failure_state_names_are_in_the_order_play_game_counts_them() -> None:
    assert _STATE_LOOPHOLES == (
        "only_pass",
        "e3_guard",
        "deck_empty",
        "supply_empty",
        "tickets_empty",
    )


def test_an_agent_with_an_act_of_its_own_is_given_views() -> None:
    seen: list[PlayerView] = []

    class Watching(RandomAgent):
        def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
            seen.append(view)
            return super().act(view, legal, rng)

    state = ttr_core.new_game("newyork", 2, seed=5)
    watched = play_game(state, [Watching(), RandomAgent()], 5)
    plain = play_game(state, [RandomAgent(), RandomAgent()], 5)
    assert watched.history == plain.history
    assert seen and all(type(view) is PlayerView and view.viewer == 0 for view in seen)
    assert len(seen) == sum(1 for a in watched.history if a.player == 0)
