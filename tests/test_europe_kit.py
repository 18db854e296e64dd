"""The verification kit on Europe (issue 21): ``verify`` over seeded games of every
player count and the kit's state machine, with every variant of the map on
(tunnels, ferries, stations, long tickets, the European Express) — the core's
invariants and each plugin's own, after every action.

``ttr verify --map europe --games 500`` is the full run; this is its reduced
form for the suite.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from ttr_core_plugins.ferries import locomotives
from ttr_core_plugins.tunnels import is_tunnel

import ttr_core
from ttr_core import Action, ClaimRoute, GameState
from ttr_core.testing import Invariant, invariant_names, rules_machine, verify

MAP = "europe"
VARIANTS = ("tunnels", "ferries", "stations", "long_tickets", "longest_route")


def _own_invariants() -> list[str]:
    rules = ttr_core.new_game(MAP, 2, seed=0).rules
    assert rules.variants == VARIANTS  # the map's defaults are every mechanic
    return [n for n in invariant_names(rules) if n.split(".")[0] in VARIANTS]


def test_the_plugins_check_their_own_rules() -> None:
    # Cards conserved across reveals, tickets across the box, stations <= 3 and
    # one per city, ferries paid with their locomotives: each plugin's own checks.
    assert set(_own_invariants()) >= {
        "tunnels.check_state",
        "tunnels.check_transition",
        "ferries.check_transition",
        "stations.check_state",
        "stations.check_transition",
        "long_tickets.check_state",
        "long_tickets.check_transition",
    }


def test_verify_keeps_every_invariant_on_europe_with_two_to_five_players() -> None:
    report = verify(MAP, games=20, seed=0)  # the player counts in turn: 2, 3, 4, 5, 2, ...
    assert report.ok, [str(v) for f in report.failures for v in f.violations]
    assert report.variants == VARIANTS
    assert sorted(report.games) == [2, 3, 4, 5]
    assert all(ending.endswith("cars") for _, ending in report.endings), report.endings
    actions = sum(report.actions.values())
    for name in _own_invariants():  # each plugin's own invariants ran after every action
        assert report.checks[name] >= actions, name


def test_the_state_machine_plays_europe_decision_by_decision() -> None:
    met: Counter[str] = Counter()

    def count(before: GameState, action: Action, after: GameState) -> Iterator[str]:
        """Counts the mechanics the machine's games meet (it breaks nothing)."""
        board = before.board
        if type(action) is ClaimRoute:
            met["tunnel"] += is_tunnel(board, action.route)
            met["ferry"] += locomotives(board, action.route) > 0
        met[type(action).__name__] += 1
        met["boxed"] += bool(after.boxed_tickets)
        return iter(())

    machine = rules_machine(
        MAP, VARIANTS, invariants=[Invariant("europe_met", "transition", count)]
    )
    run_state_machine_as_test(
        machine,
        settings=settings(
            max_examples=8,
            stateful_step_count=300,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
    for mechanic in ("tunnel", "PayTunnel", "GiveUpTunnel", "ferry", "BuildStation", "boxed"):
        assert met[mechanic], (mechanic, met)
