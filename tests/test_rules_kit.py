"""The verification kit itself (``ttr_core.testing``, ``ttr verify``): each invariant
catches what it is meant to, broken plugins are caught with a short reproducing
record, strategies give what they promise, and nothing needs hypothesis that
should not."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import find, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import run_state_machine_as_test

import ttr_core
import ttr_core.checking.registry
from ttr_core import Action, GameState, IllegalAction, Pending, hookimpl
from ttr_core.checking import invariants as registry
from ttr_core.checking.verify import verify
from ttr_core.cli import main
from ttr_core.testing import (
    CORE_INVARIANTS,
    Game,
    RulesViolation,
    check_rules,
    check_state,
    check_transition,
    games,
    illegal_actions,
    invariant,
    invariants_for,
    legal_actions_of,
    option_values,
    play_checked,
    rules_machine,
    states,
    unregister_invariant,
)

from .helpers import claim, new_started, route_id, with_hand

# ---------------------------------------------------------------------------
# Plugins that break one rule each
# ---------------------------------------------------------------------------


@attrs.frozen
class Knock(Action):
    """A test action: knock ``times`` times (a whole turn)."""

    times: int


class Liar:
    """Lists a knock it then refuses."""

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {"kit_liar.knock": Knock}

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != "turn":
            return None
        return [Knock(pending.player, 1)]

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if isinstance(action, Knock):
            raise IllegalAction("kit_liar.no", "nobody answers")
        return None


class Lenient:
    """Lists one knock and accepts any number of knocks."""

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {"kit_lenient.knock": Knock}

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != "turn":
            return None
        return [Knock(pending.player, 1)]

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if isinstance(action, Knock):
            return ttr_core.end_turn(state)
        return None


class Leak:
    """Shows every seat every hand."""

    @hookimpl
    def ttr_player_view(self, state: GameState) -> Mapping[str, Any]:
        return {"kit_leak.hands": tuple(p.hand.counts for p in state.players)}


class Chaos:
    """Draws chance that is not the game's seed."""

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant("kit_chaos", random.SystemRandom().random())


PLUGINS = {"kit_liar": Liar(), "kit_lenient": Lenient(), "kit_leak": Leak(), "kit_chaos": Chaos()}


@pytest.fixture(scope="module", autouse=True)
def broken_plugins() -> Iterator[None]:
    for name, plugin in PLUGINS.items():
        ttr_core.register_variant(name, plugin)
    yield
    for name in PLUGINS:
        ttr_core.unregister_variant(name)


def names(violations: Sequence[ttr_core.checking.registry.Violation]) -> set[str]:
    return {v.invariant for v in violations}


# ---------------------------------------------------------------------------
# Imports: the kit needs hypothesis, ttr_core and ttr verify do not
# ---------------------------------------------------------------------------

NO_HYPOTHESIS = "import sys; sys.modules['hypothesis'] = None\n"


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )


def test_importing_ttr_core_does_not_import_hypothesis() -> None:
    done = run_python(
        "import sys, ttr_core, ttr_core.checking.verify, ttr_core.cli\n"
        "assert 'hypothesis' not in sys.modules, 'hypothesis imported'\n"
    )
    assert done.returncode == 0, done.stderr


def test_without_hypothesis_the_kit_says_what_to_install_and_ttr_verify_still_works() -> None:
    done = run_python(NO_HYPOTHESIS + "import ttr_core.testing\n")
    assert done.returncode != 0
    assert "ImportError" in done.stderr and "pip install '.[testing]'" in done.stderr
    done = run_python(
        NO_HYPOTHESIS + "from ttr_core.cli import main\n"
        "raise SystemExit(main(['verify', '--map', 'newyork', '--games', '3']))\n"
    )
    assert done.returncode == 0, done.stderr
    assert "no invariant broken" in done.stdout


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------


def test_the_registry_holds_the_core_invariants_then_each_variants_own() -> None:
    assert [inv.name for inv in ttr_core.checking.registry.registered_invariants()][
        : len(CORE_INVARIANTS)
    ] == list(CORE_INVARIANTS)
    neutral = ttr_core.new_game("nederland", 2, seed=0, variants=["tolls", "neutral"])
    found = [inv.name for inv in invariants_for(neutral.rules)]
    assert found == [*CORE_INVARIANTS, "tolls.check_state", "neutral.check_state"]
    found = [inv.name for inv in invariants_for(ttr_core.new_game("newyork", 2, seed=0).rules)]
    assert found[-1] == "attractions.check_state"
    usa = ttr_core.new_game("usa", 2, seed=0).rules
    assert [inv.name for inv in invariants_for(usa)] == list(CORE_INVARIANTS)
    assert [inv.name for inv in invariants_for(usa, only=["decision"])] == ["decision"]
    assert "decision" not in [inv.name for inv in invariants_for(usa, skip=["decision"])]


def test_an_invariant_registered_with_the_decorator_is_checked_where_it_applies() -> None:
    @invariant(variants=["tolls"])
    def tolls_never_above_a_thousand(state: GameState) -> Iterator[str]:
        """Nobody holds more than 1000 in tolls."""
        if any(h > 1000 for h in state.variant("tolls").holdings):
            yield "over a thousand"

    try:
        ned = ttr_core.new_game("nederland", 3, seed=0)
        assert "tolls_never_above_a_thousand" in [i.name for i in invariants_for(ned.rules)]
        plain = ttr_core.new_game("nederland", 3, seed=0, variants=[])
        assert "tolls_never_above_a_thousand" not in [i.name for i in invariants_for(plain.rules)]
        rich = ttr_core.new_game("nederland", 3, seed=0, options={"tolls": {"start_value": 2000}})
        assert names(check_state(rich)) == {"tolls_never_above_a_thousand"}
        (inv,) = [
            i
            for i in ttr_core.checking.registry.registered_invariants()
            if i.name == "tolls_never_above_a_thousand"
        ]
        assert inv.doc == "Nobody holds more than 1000 in tolls."
    finally:
        unregister_invariant("tolls_never_above_a_thousand")
    assert "tolls_never_above_a_thousand" not in [i.name for i in invariants_for(ned.rules)]


# ---------------------------------------------------------------------------
# Each core invariant catches what it is meant to
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def played() -> GameState:
    """A 3-player New York game with claims made, a pair half claimed."""
    state = new_started(3, seed=4)
    pair = route_id(state, "Central Park", "Times Square", "red")
    state = claim(state, 0, pair, "red")
    state = claim(state, 1, route_id(state, "Lincoln Center", "Central Park"), "orange", 1)
    assert not check_state(state)
    return state


def _replace(items: tuple[Any, ...], i: int, value: Any) -> tuple[Any, ...]:
    return (*items[:i], value, *items[i + 1 :])


def _player(state: GameState, seat: int, **changes: Any) -> GameState:
    player = attrs.evolve(state.players[seat], **changes)
    return attrs.evolve(state, players=_replace(state.players, seat, player))


CORRUPTIONS: dict[str, Callable[[GameState], GameState]] = {
    "cards_conserved": lambda s: attrs.evolve(s, deck=s.deck[1:]),
    "tickets_conserved": lambda s: _player(s, 1, tickets=(*s.players[1].tickets, s.ticket_deck[0])),
    "car_accounting": lambda s: _player(s, 0, cars=s.players[0].cars - 1),
    "route_ownership": lambda s: attrs.evolve(
        s, owners=_replace(s.owners, s.board.routes[s.players[0].routes[0]].partner, 0)
    ),
    "running_score": lambda s: _player(s, 2, score=s.players[2].score + 1),
    "display_rules": lambda s: attrs.evolve(
        s, display=(None, *s.display[1:]), deck=(*s.deck, s.display[0])
    ),
    "decision": lambda s: attrs.evolve(s, pending=Pending("turn", 7)),
}


@pytest.mark.parametrize("name", sorted(CORRUPTIONS))
def test_a_corrupted_state_breaks_exactly_the_invariant_about_it(
    played: GameState, name: str
) -> None:
    corrupted = CORRUPTIONS[name](played)
    found = names(
        check_state(corrupted, [i for i in invariants_for(played.rules) if i.name == name])
    )
    assert found == {name}


def test_both_routes_of_a_pair_claimed_at_two_players_break_the_pair_policy() -> None:
    state = new_started(2, seed=4)
    red = route_id(state, "Central Park", "Times Square", "red")
    partner = state.board.routes[red].partner
    assert partner is not None
    state = claim(state, 0, red, "red")
    # The engine refuses the second route: build the state it would have made.
    length = state.board.routes[partner].length
    owners = _replace(state.owners, partner, 1)
    state = _player(state, 1, routes=(partner,), cars=state.players[1].cars - length)
    state = _player(state, 1, score=state.players[1].score + state.board.rules.route_points[length])
    state = attrs.evolve(state, owners=owners)
    problems = [v for v in check_state(state) if v.invariant == "route_ownership"]
    assert [v.invariant for v in check_state(state)] == ["route_ownership"]
    assert "only one may be" in problems[0].message


def test_a_score_sheet_that_does_not_add_up_breaks_score_breakdown(
    played: GameState, monkeypatch: pytest.MonkeyPatch
) -> None:
    sheets = ttr_core.score_sheets(played)
    wrong = (attrs.evolve(sheets[0], total=sheets[0].total + 1), *sheets[1:])
    monkeypatch.setattr(registry, "score_sheets", lambda state: wrong)
    assert names(check_state(played)) == {"score_breakdown"}


def test_transition_invariants(played: GameState) -> None:
    before = played
    action = ttr_core.legal_actions(before)[0]
    assert not check_transition(before, action, ttr_core.apply(before, action))
    rid = before.players[0].routes[0]
    stolen = attrs.evolve(before, owners=_replace(before.owners, rid, 1))
    assert names(check_transition(before, action, stolen)) == {"claims_are_permanent"}
    seat = before.current_player
    assert seat is not None
    free = next(r for r in before.board.routes if before.owners[r.id] == -1 and r.color != "gray")
    given = with_hand(before, seat, **{free.color: free.length})
    claim_action = ttr_core.ClaimRoute(seat, free.id, free.color, 0)
    claimed = ttr_core.apply(given, claim_action)
    assert not check_transition(given, claim_action, claimed)
    short = _player(claimed, seat, cars=claimed.players[seat].cars - 1)
    assert names(check_transition(given, claim_action, short)) == {"claim_effect"}


def test_a_game_longer_than_its_bound_breaks_terminates() -> None:
    report = play_checked(
        ttr_core.new_game("newyork", 2, seed=1), lambda s, legal: legal[0], max_actions=5
    )
    assert names(report.violations) == {"terminates"}
    assert len(report.play.actions) == 6


@pytest.mark.parametrize(
    ("variant", "broken", "expected"),
    [
        ("kit_liar", "legal_actions_exact", "is refused"),
        ("kit_lenient", "legal_actions_exact", "is not listed but apply accepts it"),
        ("kit_leak", "views_hide_secrets", "which it cannot see"),
        ("kit_chaos", "determinism", "gave another state"),
    ],
)
def test_a_broken_plugin_is_caught_with_a_short_record_that_reproduces_it(
    variant: str, broken: str, expected: str
) -> None:
    with pytest.raises(RulesViolation) as caught:
        check_rules("newyork", ["attractions", variant], options={}, examples=60)
    message = str(caught.value)
    assert f"{broken}: " in message and expected in message
    text = message.rsplit("record: ", 1)[1]
    record = ttr_core.from_json(text, ttr_core.GameRecord)
    assert record.variants == ("attractions", variant)
    assert len(record.actions) <= 8, "shrunk to a short game"
    if variant != "kit_chaos":
        last = list(ttr_core.replay(record))[-1]
        assert broken in names(check_state(last))


def test_a_payment_laid_down_but_not_shown_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nordic Countries' claim with sets, with its cards not shown
    (``effects.show_cards`` made to do nothing): a state dealt from another
    seat's view deals the hand at random, and the claim's last card given is
    refused there. ``determinized_states_play`` finds it in a few games."""
    monkeypatch.setattr(ttr_core.effects, "show_cards", lambda state, seat, cards: state)
    with pytest.raises(RulesViolation) as caught:
        # Only this invariant: the tunnels' own check sees unshown tunnel claims too.
        check_rules("nordiccountries", examples=10, only=["determinized_states_play"])
    message = str(caught.value)
    assert "determinized_states_play: " in message and "which it refuses" in message


def test_the_state_machine_catches_a_plugin_listing_what_it_refuses() -> None:
    machine = rules_machine("newyork", ["attractions", "kit_liar"], options={})
    quick = settings(
        machine.TestCase.settings,
        max_examples=50,
        stateful_step_count=30,
        database=None,
        report_multiple_bugs=False,
    )
    with pytest.raises(RulesViolation, match=r"listed Knock\(player=\d, times=1\)"):
        run_state_machine_as_test(machine, settings=quick)


def test_the_state_machine_plays_whole_games_of_a_correct_variant() -> None:
    machine = rules_machine("amsterdam", ["merchandise"])
    run_state_machine_as_test(
        machine,
        settings=settings(machine.TestCase.settings, max_examples=4, stateful_step_count=120),
    )


# ---------------------------------------------------------------------------
# Strategies
# ---------------------------------------------------------------------------


@settings(max_examples=25)
@given(data=st.data())
def test_illegal_actions_are_never_listed_and_always_refused(data: st.DataObject) -> None:
    play = data.draw(states(games(options={}), max_actions=120))
    state = play.state
    if state.is_over:
        return
    listed = ttr_core.legal_actions(state)
    ttr_core.apply(state, data.draw(legal_actions_of(state)))
    action = data.draw(illegal_actions(state))
    assert action not in listed
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, action)


def test_states_shrink_to_the_shortest_way_there() -> None:
    play = find(
        states(games("nederland", [], players=3, options={}), max_actions=100),
        lambda p: len(p.actions) >= 4,
        settings=settings(database=None),
    )
    assert len(play.actions) == 4
    replayed = list(ttr_core.replay(play.record))
    assert replayed == list(play.states)


def test_games_draw_options_within_their_declarations_and_shrink_to_the_defaults() -> None:
    values = find(option_values(["tolls", "neutral"]), lambda _: True)
    assert values == {"tolls": {"start_value": 30, "loan_penalty": 5}, "neutral": {"cars": 40}}

    @settings(max_examples=50)
    @given(game=games("nederland", ["tolls", "neutral"]))
    def within_bounds(game: Game) -> None:
        assert game.players == 2
        assert 0 <= game.options["tolls"]["start_value"] <= 10_000
        assert 1 <= game.options["neutral"]["cars"] <= 200
        game.new()

    within_bounds()


# ---------------------------------------------------------------------------
# ttr verify
# ---------------------------------------------------------------------------


def test_ttr_verify_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--map", "amsterdam", "--games", "6", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "6 random games (seeds 3–8)" in out
    assert "only Pass" in out and "wilds stuck" in out and "deck empty" in out
    for players in (2, 3, 4):
        assert any(line.split()[:2] == [str(players), "2"] for line in out.splitlines())
    for name in (*CORE_INVARIANTS, "merchandise.check_state"):
        assert name in out
    assert out.rstrip().endswith("no invariant broken")


def test_ttr_verify_reports_a_broken_variant_and_how_to_reproduce_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["verify", "--variants", "attractions,kit_liar", "--players", "2", "--games", "2"]
    assert main([*argv, "--records"]) == 1
    out = capsys.readouterr().out
    assert "legal_actions_exact" in out and "listed Knock(player=" in out
    assert "reproduce: ttr verify --map newyork" in out and "record of seed 0" in out
    assert main(["verify", "--map", "nowhere"]) == 2


def test_verify_in_several_processes_counts_the_same() -> None:
    one = verify("newyork", games=8, seed=5)
    two = verify("newyork", games=8, seed=5, jobs=2)
    assert one.games == two.games and one.actions == two.actions and one.checks == two.checks
    assert one.ok and two.ok


def test_verify_plays_only_the_player_counts_the_variants_allow() -> None:
    report = verify("nederland", ["tolls", "neutral"], games=2)
    assert set(report.games) == {2} and set(report.skipped) == {3, 4, 5}
    assert "2-player" in report.skipped[3]


# ---------------------------------------------------------------------------
# The guide's examples run
# ---------------------------------------------------------------------------

GUIDE = Path(__file__).resolve().parents[1] / "docs" / "testing.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def test_the_testing_guide_examples_run() -> None:
    if not GUIDE.is_file():
        pytest.skip("docs/testing.md is checked from a repository checkout")
    blocks = PYTHON_BLOCK.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(blocks) >= 6
    before = [inv.name for inv in ttr_core.checking.registry.registered_invariants()]
    for block in blocks:
        exec(compile(block, "<docs/testing.md>", "exec"), {})
    assert [inv.name for inv in ttr_core.checking.registry.registered_invariants()] == before
