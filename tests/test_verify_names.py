"""Invariant names given to ``ttr verify``, ``verify``, ``check_rules`` and the
state machine are checked: a name no invariant has is refused with the closest
names ("did you mean ...?") and the list, never taken as "check nothing"."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import ttr_core
from ttr_core import ArgumentError, GameState, hookimpl
from ttr_core.checking.verify import verify
from ttr_core.cli import main
from ttr_core.testing import (
    CORE_INVARIANTS,
    check_rules,
    invariant_names,
    invariants_for,
    rules_machine,
)


class Stepper:
    """A plugin shipping one invariant across a step (that always holds)."""

    @hookimpl
    def ttr_check_transition(self, before: GameState, after: GameState) -> None:
        return None


@pytest.fixture(scope="module", autouse=True)
def stepper() -> Iterator[None]:
    ttr_core.register_variant("stepper", Stepper())
    yield
    ttr_core.unregister_variant("stepper")


def _verify(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["verify", "--players", "2", "--games", "1", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_ttr_verify_only_nosuch_fails_and_lists_the_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = _verify(["--only", "nosuch"], capsys)
    assert status == 2 and "no invariant broken" not in out
    assert "ttr verify: only: no invariant is called 'nosuch'; choose among: " in err
    for name in (*CORE_INVARIANTS, "attractions.check_state", "stepper.check_transition"):
        assert name in err


def test_ttr_verify_suggests_the_closest_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = _verify(["--only", "decison,claim_effect"], capsys)
    assert status == 2
    assert "no invariant is called 'decison'; did you mean 'decision'?" in err


def test_ttr_verify_refuses_a_skip_typo(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _verify(["--skip", "cards_conservd"], capsys)
    assert status == 2 and not out
    assert "skip: no invariant is called 'cards_conservd'; did you mean 'cards_conserved'" in err


def test_ttr_verify_refuses_an_only_that_checks_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, _, err = _verify(["--only", ""], capsys)
    assert status == 2 and "only names no invariant, so nothing would be checked" in err
    # A real invariant, of a variant this game does not play: nothing would be checked.
    status, _, err = _verify(["--only", "tolls.check_state"], capsys)
    assert status == 2
    assert "invariant 'tolls.check_state' is not checked in games of newyork" in err


def test_ttr_verify_checks_what_only_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _verify(["--only", "decision,claim_effect"], capsys)
    assert status == 0 and out.rstrip().endswith("no invariant broken")
    table = out[out.index("\ninvariant ") + 1 :].splitlines()[1:]
    assert [line.split()[0] for line in table if line.strip()][:2] == ["decision", "claim_effect"]
    assert not any(line.startswith("cards_conserved") for line in table)
    status, out, _ = _verify(["--skip", "decision", "--variants", "stepper"], capsys)
    assert status == 0 and "stepper.check_transition" in out
    assert not any(line.startswith("decision ") for line in out.splitlines())


def test_ttr_verify_help_lists_the_invariant_names(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["verify", "--help"])
    assert done.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Invariants, for --only and --skip" in text
    for name in (*CORE_INVARIANTS, "tolls.check_state", "stepper.check_transition"):
        assert name in text


def test_invariant_names_cover_the_core_and_every_installed_variant() -> None:
    names = invariant_names()
    assert names[: len(CORE_INVARIANTS)] == CORE_INVARIANTS
    assert {"tolls.check_state", "neutral.check_state", "stepper.check_transition"} <= set(names)
    rules = ttr_core.new_game("usa", 2, seed=0).rules
    assert invariant_names(rules) == CORE_INVARIANTS


def test_verify_refuses_unknown_names() -> None:
    with pytest.raises(ArgumentError, match="did you mean 'determinism'"):
        verify("newyork", players=[2], games=1, only=["determinsm"])
    with pytest.raises(ArgumentError, match="skip: no invariant is called 'nosuch'"):
        verify("newyork", players=[2], games=1, skip=["nosuch"])


def test_check_rules_refuses_unknown_names_before_playing() -> None:
    with pytest.raises(ArgumentError) as err:
        check_rules("newyork", [], players=2, examples=1, only=["nosuch"])
    assert "only: no invariant is called 'nosuch'; choose among: cards_conserved," in str(err.value)
    with pytest.raises(ArgumentError, match="did you mean 'decision'"):
        check_rules("newyork", [], players=2, examples=1, skip=["decison"])
    with pytest.raises(ArgumentError, match="only must be a list of invariant names, not str"):
        check_rules("newyork", [], players=2, examples=1, only="decision")
    with pytest.raises(ArgumentError, match="only names no invariant"):
        check_rules("newyork", [], players=2, examples=1, only=[])
    with pytest.raises(ArgumentError, match="skip must name invariants by str, not int"):
        check_rules("newyork", [], players=2, examples=1, skip=[3])  # type: ignore[list-item]


def test_check_rules_refuses_an_only_no_game_played_checks() -> None:
    with pytest.raises(ArgumentError, match=r"none of tolls\.check_state was checked"):
        check_rules("newyork", [], players=2, examples=1, only=["tolls.check_state"])
    check_rules("newyork", [], players=2, examples=1, only=["decision"])


def test_check_rules_accepts_the_names_of_invariants_given_for_the_call() -> None:
    mine = ttr_core.testing.Invariant("mine", "state", lambda state: None)
    check_rules("newyork", [], players=2, examples=1, only=["mine"], invariants=[mine])


def test_the_state_machine_and_invariants_for_refuse_unknown_names() -> None:
    with pytest.raises(ArgumentError, match="did you mean 'terminates'"):
        rules_machine("newyork", only=["terminate"])
    rules = ttr_core.new_game("newyork", 2, seed=0).rules
    with pytest.raises(ArgumentError, match="skip: no invariant is called 'nosuch'"):
        invariants_for(rules, skip=["nosuch"])
    # A known invariant that this game does not check is simply not there.
    assert invariants_for(rules, only=["tolls.check_state", "decision"])[0].name == "decision"
