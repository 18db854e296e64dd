"""Property tests: thousands of random whole games through legal_actions/apply.

New York (2–4 players) and Nederland (2–5 players, tolls on and off).

Each game checks the core invariants after every action: cards are
conserved, cars never go negative, no player owns both routes of a pair,
with 2 players no pair has both routes claimed, tickets are conserved, and
the running score matches the routes; at the end every total equals the sum
of its breakdown lines. The same seed and choices replay the same game.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from ttr_plugins.tolls import START_VALUE, TollState

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    IllegalAction,
    KeepTickets,
    Pass,
)

from .helpers import card_total


def check_invariants(state: GameState) -> None:
    board = state.board
    assert card_total(state) == board.total_cards
    assert all(c >= 0 for c in state.discard)
    held_tickets = sum(len(p.tickets) for p in state.players)
    pending = state.pending
    offered = len(pending.offered) if pending is not None else 0
    waiting = sum(len(o) for o in state.start_offers)
    piles = len(state.ticket_deck) + len(state.ticket_discard)
    assert held_tickets + offered + waiting + piles == len(board.tickets)
    for seat, player in enumerate(state.players):
        assert player.cars >= 0
        assert all(c >= 0 for c in player.hand.counts)
        assert player.cars == board.rules.cars_per_player - sum(
            board.routes[r].length for r in player.routes
        )
        assert player.score == board.rules.start_scores[seat] + sum(
            board.rules.route_points[board.routes[r].length] for r in player.routes
        )
        for rid in player.routes:
            assert state.owners[rid] == seat
            partner = board.routes[rid].partner
            assert partner is None or state.owners[partner] != seat
    seats_owned = sum(1 for o in state.owners if state.is_seat(o))
    assert seats_owned == sum(len(p.routes) for p in state.players)
    others = {o.owner for o in ttr_core.non_seat_owners(state)}
    assert all(o in others for o in state.owners if o != -1 and not state.is_seat(o))
    if not state.rules.both_pair_routes_usable:
        for route in board.routes:
            if route.partner is not None:
                assert state.owners[route.id] == -1 or state.owners[route.partner] == -1
    wild = board.wild
    if None in state.display:  # E4: a slot is empty only while nothing can refill it
        assert not state.deck and not any(state.discard)
    if state.display.count(wild) > board.rules.max_face_up_wilds:
        # allowed only when no reset could help (E3)
        non_wild = (
            len(state.deck)
            - state.deck.count(wild)
            + sum(state.discard)
            - state.discard[wild]
            + sum(1 for c in state.display if c is not None and c != wild)
        )
        pool = len(state.deck) + sum(state.discard) + sum(1 for c in state.display if c is not None)
        assert non_wild < min(len(state.display), pool) - board.rules.max_face_up_wilds
    if state.pending is None:
        assert state.termination is not None
        assert ttr_core.legal_actions(state) == ()


def check_final(state: GameState) -> None:
    scores = ttr_core.final_scores(state)
    assert scores.winners
    for sheet in scores.sheets:
        assert sheet.total == sum(line.points for line in sheet.lines)
        assert sheet.tickets_completed + sheet.tickets_failed == len(
            state.players[sheet.player].tickets
        )
    best = max(scores.totals)
    assert all(scores.totals[w] == best for w in scores.winners)


def play(
    players: int,
    seed: int,
    chooser: random.Random,
    map: str = "newyork",
    variants: list[str] | None = None,
) -> Iterator[tuple[GameState, Action]]:
    state = ttr_core.new_game(map, players, seed=seed, variants=variants)
    while not ttr_core.is_over(state):
        legal = ttr_core.legal_actions(state)
        assert legal, "a live game always offers an action"
        action = legal[chooser.randrange(len(legal))]
        yield state, action
        state = ttr_core.apply(state, action)
    yield state, Pass(-1)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=1000)
@given(seed=st.integers(0, 2**32), chooser=st.randoms(use_true_random=False))
def test_random_games_keep_every_invariant_and_end(
    players: int, seed: int, chooser: random.Random
) -> None:
    for steps, (state, _action) in enumerate(play(players, seed, chooser)):
        check_invariants(state)
        assert steps < 2000, "game did not end"
    check_final(state)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=100)
@given(seed=st.integers(0, 2**32), choices=st.integers(0, 2**32))
def test_the_same_seed_and_choices_replay_the_same_game(
    players: int, seed: int, choices: int
) -> None:
    first = [(s, a) for s, a in play(players, seed, random.Random(choices))]
    second = [(s, a) for s, a in play(players, seed, random.Random(choices))]
    assert first == second
    # replaying just the recorded actions reproduces every state
    state = ttr_core.new_game("newyork", players, seed=seed)
    for recorded_state, action in first[:-1]:
        assert state == recorded_state
        state = ttr_core.apply(state, action)
    assert state == first[-1][0]


def candidate_actions(state: GameState) -> list[Action]:
    """A universe of actions around the legal ones: every seat, every route and payment."""
    board = state.board
    seats = range(state.num_players)
    colours: list[str | None] = [*board.colors, None]
    actions: list[Action] = []
    for seat in seats:
        actions += [DrawBlind(seat), DrawTickets(seat), Pass(seat)]
        actions += [DrawFaceUp(seat, slot) for slot in range(-1, 6)]
        for route in board.routes:
            actions += [
                ClaimRoute(seat, route.id, colour, wilds)
                for colour in colours
                for wilds in range(route.length + 1)
            ]
        if state.pending is not None and state.pending.offered:
            offered = state.pending.offered
            actions += [KeepTickets(seat, []), KeepTickets(seat, offered)]
            actions += [KeepTickets(seat, [t]) for t in offered]
            actions += [KeepTickets(seat, [*offered, 99])]
    return actions


@pytest.mark.parametrize(
    ("map_name", "players", "variants", "stride"),
    [
        ("newyork", 2, None, 1),
        ("newyork", 3, None, 1),
        ("newyork", 4, None, 1),
        # Nederland's games are long and its candidate set large: every 10th state.
        ("nederland", 2, None, 10),
        ("nederland", 3, [], 10),
    ],
)
@settings(max_examples=10)
@given(seed=st.integers(0, 2**32), chooser=st.randoms(use_true_random=False))
def test_legal_actions_are_exact(
    map_name: str,
    players: int,
    variants: list[str] | None,
    stride: int,
    seed: int,
    chooser: random.Random,
) -> None:
    """Every listed action applies; every other candidate is refused with IllegalAction."""
    game = play(players, seed, chooser, map=map_name, variants=variants)
    for step, (state, _) in enumerate(game):
        if step % stride:
            continue
        legal = set(ttr_core.legal_actions(state))
        assert len(legal) == len(ttr_core.legal_actions(state)), "no duplicates"
        for action in legal:
            ttr_core.apply(state, action)
        for action in candidate_actions(state):
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                ttr_core.apply(state, action)


class WholeGames(RuleBasedStateMachine):
    """Stateful test: play games action by action; start a new one when a game ends."""

    state: GameState

    @initialize(players=st.integers(2, 4), seed=st.integers(0, 2**16))
    def start(self, players: int, seed: int) -> None:
        self.state = ttr_core.new_game("newyork", players, seed=seed)
        self.games = 0

    @precondition(lambda self: not ttr_core.is_over(self.state))
    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        legal = ttr_core.legal_actions(self.state)
        action = data.draw(st.sampled_from(legal))
        before = self.state
        self.state = ttr_core.apply(self.state, action)
        assert ttr_core.legal_actions(before) == legal  # the input state did not change

    @precondition(lambda self: ttr_core.is_over(self.state))
    @rule(seed=st.integers(0, 2**16))
    def next_game(self, seed: int) -> None:
        check_final(self.state)
        self.games += 1
        self.state = ttr_core.new_game("newyork", self.state.num_players, seed=seed)

    @invariant()
    def invariants_hold(self) -> None:
        if hasattr(self, "state"):
            check_invariants(self.state)


WholeGames.TestCase.settings = settings(max_examples=25, stateful_step_count=300)
TestWholeGames = WholeGames.TestCase


def check_tolls(before: GameState, action: Action, after: GameState) -> None:
    """Toll value is conserved; a loan is taken exactly when the toll cannot be paid."""
    now = after.variant("tolls")
    assert isinstance(now, TollState)
    assert all(h >= 0 for h in now.holdings)
    total = sum(now.holdings) + now.bank_received - now.bank_paid
    assert total == START_VALUE * after.num_players
    was = before.variant("tolls")
    if not isinstance(action, ClaimRoute):
        assert now == was
        return
    route = before.board.routes[action.route]
    toll = route.extra["toll"]
    seat = action.player
    owner = before.owner(route.partner) if route.partner is not None else None
    if was.holdings[seat] >= toll:  # pays: no loan
        assert now.loans == was.loans
        assert now.holdings[seat] == was.holdings[seat] - toll
        if owner is None:
            assert now.bank_received == was.bank_received + toll
        else:
            assert now.holdings[owner] == was.holdings[owner] + toll
    else:  # cannot pay: one loan, nothing paid, the bank pays any owner
        assert now.loans[seat] == was.loans[seat] + 1
        assert now.holdings[seat] == was.holdings[seat]
        assert now.bank_received == was.bank_received
        if owner is not None:
            assert now.holdings[owner] == was.holdings[owner] + toll
            assert now.bank_paid == was.bank_paid + toll


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("variants", [None, []], ids=["tolls", "no-tolls"])
@settings(max_examples=100)
@given(seed=st.integers(0, 2**32), chooser=st.randoms(use_true_random=False))
def test_random_nederland_games_keep_every_invariant(
    players: int, variants: list[str] | None, seed: int, chooser: random.Random
) -> None:
    previous: tuple[GameState, Action] | None = None
    for steps, (state, action) in enumerate(
        play(players, seed, chooser, map="nederland", variants=variants)
    ):
        check_invariants(state)
        if variants is None and previous is not None:
            check_tolls(previous[0], previous[1], state)
        if variants == []:
            assert state.variant("tolls") is None
        previous = (state, action)
        assert steps < 5000, "game did not end"
    check_final(state)
    if variants is None:
        lines = {line.kind for sheet in ttr_core.final_scores(state).sheets for line in sheet.lines}
        assert {"toll_bonus", "loans"} <= lines
