"""The card-swap-and-bridges variant, verified with ttr-core's kit (``ttr_core.testing``).

``check_rules`` plays whole games chosen by hypothesis and checks every
invariant after every action: the core's (cards conserved, ``legal_actions``
exact, views that leak nothing, games that end and replay ...) and the ones
registered below for the variant's own rules. The same kit catches copies of
the plugin with a rule broken (``broken_swap.py``) and shrinks the failure to
a short game whose JSON record reproduces it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

import attrs
import pytest
from broken_swap import NAME as BROKEN
from broken_swap import broken_plugin
from hypothesis import settings
from ttr_example_variant import is_bridge

import ttr_core
import ttr_core.testing as kit
from ttr_core import Action, ClaimRoute, GameState

# ---------------------------------------------------------------------------
# The swap's own rules, as invariants (checked only in games that play "swap")
# ---------------------------------------------------------------------------


@kit.invariant(kind="transition", variants=["swap"])
def a_swap_is_used_once_by_its_own_seat(
    before: GameState, action: Action, after: GameState
) -> Iterator[str]:
    """A seat's swap flag turns on only with that seat's swap, and never off."""
    was, now = before.variant("swap"), after.variant("swap")
    for seat, (old, new) in enumerate(zip(was, now, strict=True)):
        swapped = type(action).__name__ == "SwapCards" and action.player == seat
        if new != (old or swapped):
            yield f"seat {seat}'s swap flag went from {old} to {new} on {action!r}"


@kit.invariant(variants=["swap"])
def no_lone_wild_on_a_length_1_route(state: GameState) -> Iterator[str]:
    """No claim of a length-1 route paid with a wild alone is ever listed."""
    for action in ttr_core.legal_actions(state):
        if (
            isinstance(action, ClaimRoute)
            and action.color is None
            and state.board.routes[action.route].length == 1
        ):
            yield f"{action!r} is listed"


@kit.invariant(variants=["swap"], every=3)
def the_bonus_goes_to_seats_that_never_swapped(state: GameState) -> Iterator[str]:
    """Each seat's swap line scores the option's bonus exactly when it never swapped
    (checked every third action, and at the end: score sheets cost time)."""
    bonus = state.rules.option("swap", "unused_bonus")
    for seat, sheet in enumerate(ttr_core.score_sheets(state)):
        (line,) = [line for line in sheet.lines if line.kind == "swap"]
        expected = 0 if state.variant("swap")[seat] else bonus
        if line.points != expected:
            yield f"seat {seat}'s swap line scores {line.points}, not {expected}"


def a_claim_costs_its_length_and_a_bridge_one_card_more(
    before: GameState, action: Action, after: GameState
) -> Iterator[str]:
    """A seat that claims a route pays as many cards as its length, one more for a
    bridge (the step where the claim is completed: the claim itself, or the
    extra card paid for a bridge)."""
    for route in after.board.routes:
        owner = after.owner(route.id)
        if before.owner(route.id) is None and owner is not None and after.is_seat(owner):
            paid = before.players[owner].hand.total - after.players[owner].hand.total
            owed = route.length + is_bridge(route)
            if paid != owed:
                yield f"seat {owner} paid {paid} cards for route {route.id}, not {owed}: {action!r}"


def tickets_cross_other_seats_bridges(state: GameState) -> Iterator[str]:
    """Each ticket line says completed exactly when the seat's own routes and the
    bridges other seats built join the ticket's ends (restated here, on its own)."""
    board = state.board
    for seat, sheet in enumerate(ttr_core.score_sheets(state)):
        usable = [
            r
            for r in board.routes
            if state.owner(r.id) == seat or (is_bridge(r) and state.owner(r.id) is not None)
        ]
        for line in sheet.lines:
            if line.kind == "ticket" and line.ref is not None:
                ticket = board.tickets[line.ref]
                if (line.points > 0) != _joins(usable, ticket.a, ticket.b):
                    yield f"seat {seat}'s ticket {ticket.a}-{ticket.b} scores {line.points}"


def _joins(routes: list[ttr_core.Route], a: str, b: str) -> bool:
    """Whether ``routes`` join locations ``a`` and ``b``."""
    reached, todo = {a}, [a]
    while todo:
        here = todo.pop()
        for route in routes:
            for x, y in ((route.a, route.b), (route.b, route.a)):
                if x == here and y not in reached:
                    reached.add(y)
                    todo.append(y)
    return b in reached


# The bridge rules, for the real plugin (and, given to check_rules, for the broken copies).
BRIDGE_INVARIANTS = [
    kit.Invariant("bridge_cost", "transition", a_claim_costs_its_length_and_a_bridge_one_card_more),
    kit.Invariant("open_bridges", "state", tickets_cross_other_seats_bridges, every=3),
]
for _invariant in BRIDGE_INVARIANTS:
    kit.register_invariant(attrs.evolve(_invariant, variants=frozenset({"swap"})))


# ---------------------------------------------------------------------------
# The good plugin passes, on several maps, whole games and decision by decision
# ---------------------------------------------------------------------------

test_swap_on_new_york = kit.rules_test("newyork", ["attractions", "swap"], examples=100)
# The package's map, with bridges: every rule of the variant in play, 2 and 3 seats.
test_swap_and_bridges_on_four_towns = kit.rules_test("fourtowns", ["swap"], examples=150)


@pytest.mark.parametrize(
    ("map", "variants"),
    [("nederland", ["tolls", "swap"]), ("amsterdam", ["merchandise", "swap"])],
)
def test_swap_on_other_maps(map: str, variants: list[str]) -> None:
    kit.check_rules(map, variants, examples=25)


SwapMachine = kit.rules_machine("newyork", ["attractions", "swap"])
SwapMachine.TestCase.settings = settings(
    SwapMachine.TestCase.settings, max_examples=15, stateful_step_count=100
)
TestSwapDecisionByDecision = SwapMachine.TestCase


def test_the_swap_invariants_apply_only_to_games_with_the_swap() -> None:
    mine = {"a_swap_is_used_once_by_its_own_seat", "no_lone_wild_on_a_length_1_route"}
    mine |= {"bridge_cost", "open_bridges"}
    swap = ttr_core.new_game("newyork", 2, seed=0, variants=["swap"])
    plain = ttr_core.new_game("newyork", 2, seed=0, variants=[])
    assert mine <= {inv.name for inv in kit.invariants_for(swap.rules)}
    assert not mine & {inv.name for inv in kit.invariants_for(plain.rules)}


# ---------------------------------------------------------------------------
# The broken copy is caught, with a short record that reproduces it
# ---------------------------------------------------------------------------


@pytest.fixture
def broken() -> Iterator[str]:
    ttr_core.register_variant(BROKEN, broken_plugin())
    yield BROKEN
    ttr_core.unregister_variant(BROKEN)


def test_the_kit_catches_the_off_by_one_with_a_short_game(broken: str) -> None:
    with pytest.raises(kit.RulesViolation) as caught:
        kit.check_rules("newyork", ["attractions", broken], examples=150)
    message = str(caught.value)
    print(message)  # what an author sees (pytest -s shows it)
    assert "legal_actions_exact: listed SwapCards(" in message
    assert "is refused: IllegalAction" in message
    # The message ends with the game's JSON record, shrunk to a few actions.
    text = message.rsplit("record: ", 1)[1]
    record = ttr_core.from_json(text, ttr_core.GameRecord)
    assert record.variants == ("attractions", broken)
    assert len(record.actions) <= 6
    assert len(json.loads(text)["actions"]) == len(record.actions)
    # Replaying it reaches the state where a listed swap is refused.
    state = list(ttr_core.replay(record))[-1]
    swaps = [a for a in ttr_core.legal_actions(state) if type(a).__name__ == "SwapCards"]
    refused = []
    for swap in swaps:
        try:
            ttr_core.apply(state, swap)
        except ttr_core.IllegalAction:
            refused.append(swap)
    assert refused


@pytest.mark.parametrize(
    ("broken", "caught_by"),
    [
        ("swap_spare_off_by_one", "legal_actions_exact: listed PayExtra("),
        ("swap_free_bridges", "bridge_cost: seat "),
        ("swap_all_routes_open", "open_bridges: seat "),
    ],
)
def test_the_kit_catches_broken_bridge_rules(broken: str, caught_by: str) -> None:
    ttr_core.register_variant(broken, broken_plugin(broken))
    try:
        with pytest.raises(kit.RulesViolation) as caught:
            kit.check_rules("fourtowns", [broken], examples=200, invariants=BRIDGE_INVARIANTS)
    finally:
        ttr_core.unregister_variant(broken)
    assert caught_by in str(caught.value)
