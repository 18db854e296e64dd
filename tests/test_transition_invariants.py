"""Two-state invariants shipped by plugins (hook ``ttr_check_transition``), and
what the checker accepts from the problem-reporting hooks (any iterable of
strings, generators included).

The surcharge plugin below states its rule once, in its own
``ttr_check_transition``; its deliberately wrong twin breaks that rule in its
effect. The tests never restate the rule: the kit's ``check_rules``, its state
machine and ``ttr verify`` catch the wrong twin only through the invariant the
plugin ships (with it skipped, every core invariant holds).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    GameState,
    MapError,
    PluginError,
    ScoreLine,
    TtrWarning,
    hookimpl,
)
from ttr_core.cli import main
from ttr_core.hooks import calls
from ttr_core.hooks.checks import MAX_MESSAGES
from ttr_core.testing import (
    RulesViolation,
    check_rules,
    check_transition,
    invariant_names,
    invariants_for,
    rules_machine,
)

from .test_hook_results import newyork_text

# ---------------------------------------------------------------------------
# A surcharge-like variant, and its wrong twin
# ---------------------------------------------------------------------------

#: Cards looked at on each claim.
REVEALED = 3


class Surcharge:
    """After each claim the top three cards of the deck are revealed (looked at,
    not moved); the claiming seat owes one point per revealed card that is a wild
    or of the route's colour, counted in its score sheet at the end.

    ``miscount`` makes the effect wrong the way an author might: it looks at
    only the first two revealed cards. The shipped invariant is the same in
    both.
    """

    def __init__(self, name: str, *, miscount: bool = False) -> None:
        self.name = name
        self.miscount = miscount

    def _owed(self, state: GameState, route: int, cards: int) -> int:
        board = state.board
        color = board.routes[route].color
        wild = board.wild
        matching = {wild} if color == "gray" else {wild, board.card_index(color)}
        return sum(1 for card in state.deck[:cards] if card in matching)

    @hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant(self.name, (0,) * state.num_players)

    @hookimpl
    def ttr_after_claim(self, state: GameState, player: int, route: int) -> GameState:
        owed = self._owed(state, route, REVEALED - 1 if self.miscount else REVEALED)
        surcharges = list(state.variant(self.name))
        surcharges[player] += owed
        return state.with_variant(self.name, tuple(surcharges))

    @hookimpl
    def ttr_score_lines(self, state: GameState) -> Sequence[Sequence[ScoreLine]]:
        return [(ScoreLine(self.name, "Surcharge", -owed),) for owed in state.variant(self.name)]

    @hookimpl
    def ttr_variant_state_types(self) -> dict[str, Any]:
        return {self.name: tuple[int, ...]}

    @hookimpl
    def ttr_check_transition(
        self, before: GameState, action: Action, after: GameState
    ) -> Iterator[str]:
        """The rule, stated once: a claim adds the revealed matches to its seat's
        surcharge; nothing else changes a surcharge. (A generator: any iterable
        of sentences will do.)"""
        was, now = before.variant(self.name), after.variant(self.name)
        for seat, (old, new) in enumerate(zip(was, now, strict=True)):
            owed = 0
            if type(action) is ClaimRoute and action.player == seat:
                owed = self._owed(before, action.route, REVEALED)
            if new - old != owed:
                yield (
                    f"{self.name}: seat {seat}'s surcharge went from {old} to {new} on "
                    f"{action!r}; the revealed cards make it {old + owed}"
                )


@pytest.fixture(scope="module", autouse=True)
def surcharges() -> Iterator[None]:
    ttr_core.register_variant("surcharge", Surcharge("surcharge"))
    ttr_core.register_variant("surcharge_bad", Surcharge("surcharge_bad", miscount=True))
    yield
    ttr_core.unregister_variant("surcharge")
    ttr_core.unregister_variant("surcharge_bad")


SHIPPED = "surcharge_bad.check_transition"


def test_the_shipped_invariant_is_listed_and_runs_after_each_variants_state_invariant() -> None:
    rules = ttr_core.new_game("newyork", 2, seed=0, variants=["surcharge_bad"]).rules
    found = invariants_for(rules)
    assert [(inv.name, inv.kind) for inv in found][-1] == (SHIPPED, "transition")
    assert SHIPPED in invariant_names() and "surcharge.check_transition" in invariant_names()
    assert SHIPPED in invariant_names(rules)
    plain = ttr_core.new_game("newyork", 2, seed=0, variants=[]).rules
    assert SHIPPED not in invariant_names(plain)


def test_check_rules_catches_the_wrong_twin_only_through_its_shipped_invariant() -> None:
    with pytest.raises(RulesViolation) as err:
        check_rules("newyork", ["surcharge_bad"], players=2, examples=20)
    message = str(err.value)
    assert f"{SHIPPED}: surcharge_bad: seat" in message and "record: " in message
    # Without the shipped invariant, every core invariant holds: only it sees the bug.
    check_rules("newyork", ["surcharge_bad"], players=2, examples=5, skip=[SHIPPED])
    # And the right plugin passes its own invariant.
    check_rules("newyork", ["surcharge"], players=2, examples=5)


def test_the_state_machine_catches_the_wrong_twin() -> None:
    machine = rules_machine("newyork", ["surcharge_bad"], players=2)
    with pytest.raises(RulesViolation, match=SHIPPED):
        run_state_machine_as_test(
            machine,
            settings=settings(
                machine.TestCase.settings, max_examples=30, stateful_step_count=60, database=None
            ),
        )


def test_ttr_verify_catches_the_wrong_twin(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["verify", "--players", "2", "--games", "3"]
    assert main([*argv, "--variants", "surcharge_bad"]) == 1
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(SHIPPED))
    assert int(row.split()[-1]) > 0  # its violations column
    assert main([*argv, "--variants", "surcharge_bad", "--skip", SHIPPED]) == 0
    assert main([*argv, "--variants", "surcharge"]) == 0
    assert "surcharge.check_transition" in capsys.readouterr().out


def test_check_transition_runs_the_shipped_invariant_on_one_step() -> None:
    caught: list[str] = []
    for seed in range(20):  # random games until one claim meets the miscount
        result = ttr_core.random_playout("newyork", 2, seed, ["surcharge_bad"])
        states = list(ttr_core.replay(result.record))
        for before, action, after in zip(states, result.history, states[1:], strict=False):
            caught += [v.invariant for v in check_transition(before, action, after)]
        if caught:
            break
    assert caught and set(caught) == {SHIPPED}


def test_apply_never_calls_the_transition_hook() -> None:
    calls = []

    class Counting:
        @hookimpl
        def ttr_check_transition(self, before: GameState) -> None:
            calls.append(before)

    ttr_core.register_variant("counting", Counting())
    try:
        result = ttr_core.random_playout("newyork", 2, seed=1, variants=["counting"])
        assert result.state.is_over and not calls
        rules = result.state.rules
        assert len(rules.check_transition) == 1
        assert not ttr_core.new_game("newyork", 2, seed=1).rules.check_transition
    finally:
        ttr_core.unregister_variant("counting")


# ---------------------------------------------------------------------------
# What the checker accepts from a problem-reporting hook
# ---------------------------------------------------------------------------


class OneHook:
    """A plugin whose one hook is the function given to it."""

    def __init__(self, hook: str, function: Any) -> None:
        setattr(self, hook, hookimpl(function))


@pytest.fixture
def install() -> Iterator[Any]:
    def register(hook: str, function: Any) -> None:
        ttr_core.register_variant("odd", OneHook(hook, function))

    yield register
    ttr_core.unregister_variant("odd")


def test_validate_map_may_return_a_generator(install: Any) -> None:
    install("ttr_validate_map", lambda board: (f"too small: {n}" for n in (1, 2)))
    with pytest.raises(MapError) as err:
        ttr_core.parse_map(newyork_text(), "ny.toml")
    assert [p.message for p in err.value.problems] == [
        "too small: 1 (variant 'odd')",
        "too small: 2 (variant 'odd')",
    ]
    assert "odd" in ttr_core.available_variants() and "odd" not in ttr_core.broken_variants()


def test_validate_map_may_return_an_empty_generator_or_a_tuple(install: Any) -> None:
    nothing: tuple[str, ...] = ()
    empty: tuple[Iterable[str], ...] = ((m for m in nothing), (), frozenset())
    for result in empty:
        install("ttr_validate_map", lambda board, result=result: result)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert ttr_core.parse_map(newyork_text(), "ny.toml").id == "newyork"
        assert "odd" not in ttr_core.broken_variants()


def test_check_state_may_return_a_generator(install: Any) -> None:
    install("ttr_check_state", lambda state: (f"odd: seat {s}" for s in range(state.num_players)))
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["odd"])
    assert calls.run_check_state(state.rules, state) == [
        ("odd", "odd: seat 0 (variant 'odd')"),
        ("odd", "odd: seat 1 (variant 'odd')"),
    ]
    found = [v for v in ttr_core.testing.check_state(state) if v.invariant == "odd.check_state"]
    assert len(found) == 2


def test_a_non_iterable_result_is_refused_at_the_load_that_reveals_it(install: Any) -> None:
    install("ttr_validate_map", lambda board: 3)
    with pytest.warns(TtrWarning) as caught:
        board = ttr_core.parse_map(newyork_text(), "ny.toml")  # the map still loads
    assert board.id == "newyork"
    (warning,) = caught
    text = str(warning.message)
    assert "variant 'odd': hook ttr_validate_map must return an iterable of problem" in text
    assert "not int 3" in text and "left out from now on" in text
    assert "odd" in ttr_core.broken_variants()


def test_non_strings_are_refused_at_the_load_that_reveals_them(install: Any) -> None:
    install("ttr_validate_map", lambda board: (n for n in (1, 2)))
    with pytest.warns(TtrWarning, match="must return problem messages as strings, not int 1"):
        ttr_core.parse_map(newyork_text(), "ny.toml")


@pytest.mark.parametrize(
    ("result", "fragment"),
    [
        (5, "must return an iterable of problem messages (strings) or None, not int 5"),
        ("a sentence", "must return an iterable of problem messages (strings) or None, not str"),
        ([b"bytes"], "must return problem messages as strings, not bytes"),
    ],
)
def test_check_transition_results_of_the_wrong_shape(
    install: Any, result: object, fragment: str
) -> None:
    install("ttr_check_transition", lambda before, action, after: result)
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["odd"])
    action = ttr_core.legal_actions(state)[0]
    rules = state.rules
    with pytest.raises(PluginError) as err:
        calls.run_check_transition(rules, state, action, ttr_core.apply(state, action))
    assert err.value.variant == "odd" and err.value.hook == "ttr_check_transition"
    assert fragment in str(err.value)
    # In the kit the same refusal is a violation of the variant's invariant.
    (violation,) = check_transition(state, action, ttr_core.apply(state, action))
    assert violation.invariant == "odd.check_transition" and fragment in violation.message


def test_an_endless_generator_is_cut_off(install: Any) -> None:
    def endless(state: GameState) -> Iterator[str]:
        while True:
            yield "odd: again"

    install("ttr_check_state", endless)
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["odd"])
    with pytest.raises(PluginError, match=f"returned more than {MAX_MESSAGES} problem messages"):
        calls.run_check_state(state.rules, state)


def test_a_generator_that_raises_is_named_at_the_call_that_reads_it(install: Any) -> None:
    def crashing(state: GameState) -> Iterator[str]:
        yield "odd: first"
        raise IndexError("the plugin's own bug")

    install("ttr_check_state", crashing)
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["odd"])
    with pytest.raises(PluginError) as err:
        calls.run_check_state(state.rules, state)
    assert err.value.variant == "odd" and err.value.hook == "ttr_check_state"
    assert "raised IndexError while its result was read: the plugin's own bug" in str(err.value)
    assert isinstance(err.value.__cause__, IndexError)


def test_a_generator_map_check_that_raises_leaves_the_plugin_out_with_a_warning(
    install: Any,
) -> None:
    def crashing(board: Any) -> Iterator[str]:
        raise KeyError("boom")
        yield ""

    install("ttr_validate_map", crashing)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ttr_core.parse_map(newyork_text(), "ny.toml")
    assert any("raised KeyError while its result was read" in str(w.message) for w in caught)
    assert "odd" in ttr_core.broken_variants()
