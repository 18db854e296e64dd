"""Property tests, written with the project's own verification kit (``ttr_core.testing``).

Every built-in map, with each of its variant sets, at every player count it
allows: whole games chosen by hypothesis, every invariant of the kit's
registry checked after every action (cards and tickets conserved, cars and
routes accounted for, the pair policy, scores summed, ``legal_actions``
exact, views that leak nothing, games that end and replay) together with
each variant's own (``ttr_check_state``), variant options drawn from their
declarations. The state machine plays decision by decision and tries
illegal actions too. One check stays exhaustive here: in reachable states,
every seat's every core action is applied or refused as listed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.tolls import TollState

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
from ttr_core.testing import (
    Invariant,
    check_rules,
    check_transition,
    games,
    rules_machine,
    states,
)

from .helpers import new_started, with_hand

# ---------------------------------------------------------------------------
# A variant invariant of the tolls rules, added for these tests
# ---------------------------------------------------------------------------


def tolls_paid_as_the_rules_say(
    before: GameState, action: Action, after: GameState
) -> Iterator[str]:
    """A claim pays its toll in full or takes exactly one loan (never both, never a
    part payment); the toll of a second route goes to the owner of the first.
    (Without the neutral player, whose claims between turns move toll value too.)"""
    if "neutral" in before.rules.variants:
        return
    was, now = before.variant("tolls"), after.variant("tolls")
    assert isinstance(was, TollState) and isinstance(now, TollState)
    if not isinstance(action, ClaimRoute):
        if now != was:
            yield f"{action!r} changed the toll state"
        return
    route = before.board.routes[action.route]
    toll = route.extra["toll"]
    seat = action.player
    owner = before.owner(route.partner) if route.partner is not None else None
    paid_to = owner if owner is not None and before.is_seat(owner) else None
    if was.holdings[seat] >= toll:
        if now.loans != was.loans or now.holdings[seat] != was.holdings[seat] - toll:
            yield f"seat {seat} holding {was.holdings[seat]} did not pay the toll {toll} in full"
        if paid_to is None and now.bank_received != was.bank_received + toll:
            yield f"the bank did not receive the toll {toll}"
        if paid_to is not None and now.holdings[paid_to] != was.holdings[paid_to] + toll:
            yield f"seat {paid_to}, owner of the first route, was not paid {toll}"
    else:
        if now.loans[seat] != was.loans[seat] + 1 or now.holdings[seat] != was.holdings[seat]:
            yield f"seat {seat} holding {was.holdings[seat]} < {toll} did not take one loan"
        if paid_to is not None and now.bank_paid != was.bank_paid + toll:
            yield f"the bank did not pay seat {paid_to} the toll {toll} for a loaned claim"


TOLLS_PAID = Invariant(
    "tolls_paid_as_the_rules_say",
    "transition",
    tolls_paid_as_the_rules_say,
    "a toll is paid in full or a loan taken",
    frozenset({"tolls"}),
)


def test_the_tolls_invariant_catches_an_unpaid_toll() -> None:
    state = new_started(3, seed=2, variants=["tolls"], map="nederland")
    seat = state.current_player
    route = next(r for r in state.board.routes if r.extra["toll"] and r.color != "gray")
    before = with_hand(state, seat, **{route.color: route.length})
    action = ClaimRoute(seat, route.id, route.color, 0)
    after = ttr_core.apply(before, action)
    assert not check_transition(before, action, after, [TOLLS_PAID])
    unpaid = after.with_variant("tolls", before.variant("tolls"))
    problems = check_transition(before, action, unpaid, [TOLLS_PAID])
    assert problems and "did not pay the toll" in problems[0].message


# ---------------------------------------------------------------------------
# Every built-in map x its variants x every player count
# ---------------------------------------------------------------------------

#: (map, variants, player counts, examples per player count): a few hundred
#: games per map and variant set in all (``nox -s properties``); the default run
#: plays :data:`SHARE` of them (at least 4 per configuration), to stay within
#: its time.
CONFIGS: list[tuple[str, tuple[str, ...], tuple[int, ...], int]] = [
    ("newyork", ("attractions",), (2, 3, 4), 70),
    ("newyork", (), (2, 3, 4), 40),
    ("nederland", ("tolls",), (2, 3, 4, 5), 50),
    ("nederland", (), (2, 3, 4, 5), 30),
    ("nederland", ("tolls", "neutral"), (2,), 100),
    ("usa", ("longest_route",), (2, 3, 4, 5), 50),
    ("amsterdam", ("merchandise",), (2, 3, 4), 70),
    (
        "europe",
        ("tunnels", "ferries", "stations", "long_tickets", "longest_route"),
        (2, 3, 4, 5),
        12,  # long games (about 350 actions each); the plugins' own files play more
    ),
    ("switzerland", ("tunnels", "longest_route"), (2, 3), 20),
    ("switzerland", (), (2, 3), 15),
    ("nordiccountries", ("tunnels", "ferries", "substitutes", "globetrotter"), (2, 3), 20),
    ("nordiccountries", (), (2, 3), 15),
    ("pennsylvania", ("ferries", "globetrotter", "shares"), (2, 3, 4, 5), 20),
    ("india", ("ferries", "longest_route", "mandala"), (2, 3, 4), 20),
    ("india", (), (2, 3, 4), 10),
]
#: The share of CONFIGS' examples played: ``TTR_PROPERTY_SHARE`` in the
#: environment (``nox -s properties`` sets 1), else a half.
SHARE = float(os.environ.get("TTR_PROPERTY_SHARE") or 0.5)
RUNS = [
    pytest.param(m, v, p, max(4, round(n * SHARE)), id=f"{m}-{'+'.join(v) or 'none'}-{p}p")
    for m, v, counts, n in CONFIGS
    for p in counts
]


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
def test_the_configurations_cover_every_built_in_map_and_player_count() -> None:
    covered = {(m, p) for m, _, counts, _ in CONFIGS for p in counts}
    for name in ttr_core.available_maps():
        rules = ttr_core.load_map(name).rules
        assert {(name, p) for p in range(rules.min_players, rules.max_players + 1)} <= covered
        defaults = tuple(rules.default_variants)
        assert any(m == name and v == defaults for m, v, _, _ in CONFIGS)


@pytest.mark.parametrize(("map", "variants", "players", "examples"), RUNS)
def test_every_invariant_holds_in_whole_games(
    map: str, variants: tuple[str, ...], players: int, examples: int
) -> None:
    check_rules(map, variants, players=players, examples=examples, invariants=[TOLLS_PAID])


NewYork = rules_machine("newyork", ["attractions"])
NewYork.TestCase.settings = settings(
    NewYork.TestCase.settings, max_examples=20, stateful_step_count=150
)
TestNewYorkDecisionByDecision = NewYork.TestCase

Nederland = rules_machine("nederland", ["tolls", "neutral"], players=2)
Nederland.TestCase.settings = settings(
    Nederland.TestCase.settings, max_examples=8, stateful_step_count=200
)
TestNederlandNeutralDecisionByDecision = Nederland.TestCase


# ---------------------------------------------------------------------------
# Exhaustive: every core action of every seat, in reachable states
# ---------------------------------------------------------------------------


def candidate_actions(state: GameState) -> list[Action]:
    """A universe of actions around the legal ones: every seat, every route and payment."""
    board = state.board
    colours: list[str | None] = [*board.colors, None]
    actions: list[Action] = []
    for seat in range(state.num_players):
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


@pytest.mark.parametrize("map", ["newyork", "nederland", "amsterdam"])
@settings(max_examples=12)
@given(data=st.data())
def test_every_candidate_action_is_applied_or_refused_as_listed(
    map: str, data: st.DataObject
) -> None:
    play = data.draw(states(games(map, options={}), max_actions=250), label="play")
    state = play.state
    legal = ttr_core.legal_actions(state)
    assert len(set(legal)) == len(legal), "no duplicates"
    for action in legal:
        ttr_core.apply(state, action)
    listed = set(legal)
    for action in candidate_actions(state):
        if action not in listed:
            with pytest.raises(IllegalAction):
                ttr_core.apply(state, action)
