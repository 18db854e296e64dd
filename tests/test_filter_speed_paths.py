"""The filter path without hashing (issue 20, finding 10): the legal actions and the
refusals of ``apply`` with filters that remove something are exactly those of a
straightforward reimplementation (filters applied by value, a removed action
refused by value), on random games, in strict mode and with the cheap checks.

The core records what a filter removed by identity (a filter that keeps the
objects it was given, in order: the fast path) and falls back to checks by
value for any other result (reordered, equal copies); both are exercised here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence

import attrs
import pytest

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
    Reason,
    hookimpl,
)
from ttr_core.errors import show

Rule = Callable[[Action], bool]


def no_last_slot(action: Action) -> bool:
    return not (type(action) is DrawFaceUp and action.slot == 4)


def no_even_route(action: Action) -> bool:
    return not (type(action) is ClaimRoute and action.route % 2 == 0)


def no_blind(action: Action) -> bool:
    return type(action) is not DrawBlind


def no_small_keep(action: Action) -> bool:
    return not (type(action) is KeepTickets and len(action.tickets) == 2)


class InOrder:
    """Keeps the candidates ``keep`` allows, as the same objects, in order (the fast path)."""

    def __init__(self, keep: Rule) -> None:
        self.keep = keep

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> list[Action]:
        return [a for a in actions if self.keep(a)]


class Reversed(InOrder):
    """The same actions, in reverse order (checked by value)."""

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> list[Action]:
        return [a for a in reversed(actions) if self.keep(a)]


class Copies(InOrder):
    """Equal copies of the kept actions, as a tuple (checked by value)."""

    @hookimpl
    def ttr_filter_actions(self, actions: Sequence[Action]) -> tuple[Action, ...]:  # type: ignore[override]
        return tuple(attrs.evolve(a) for a in actions if self.keep(a))


PLUGINS = {
    "sp_slot": InOrder(no_last_slot),
    "sp_even": InOrder(no_even_route),
    "sp_rev": Reversed(no_blind),
    "sp_copy": Copies(no_even_route),
    "sp_keep": InOrder(no_small_keep),
}


@pytest.fixture(scope="module", autouse=True)
def plugins() -> Iterator[None]:
    for name, plugin in PLUGINS.items():
        ttr_core.register_variant(name, plugin)
    yield
    for name in PLUGINS:
        ttr_core.unregister_variant(name)


@pytest.fixture(params=[True, False], ids=["strict", "cheap"])
def strictness(request: pytest.FixtureRequest) -> Iterator[None]:
    previous = ttr_core.set_strict(request.param)
    yield
    ttr_core.set_strict(previous)


def core_candidates(state: GameState) -> tuple[Action, ...]:
    """The core's legal actions of ``state``'s position, with no variant."""
    plain = ttr_core.new_game(state.board, state.num_players, seed=state.seed, variants=[])
    same = attrs.evolve(state, rules=plain.rules)
    return tuple(a for a in ttr_core.legal_actions(same) if type(a) is not Pass)


def reference(state: GameState) -> tuple[tuple[Action, ...], dict[Action, str]]:
    """The legal actions and the removed ones (with the variant), worked out by value."""
    actions = list(core_candidates(state))
    removed: dict[Action, str] = {}
    for name in state.rules.variants:
        keep = PLUGINS[name].keep
        for a in actions:
            if not keep(a):
                removed[a] = name
        kept = [a for a in actions if keep(a)]
        if len(kept) < len(actions):  # a result as long removes nothing: order kept
            actions = list(reversed(kept)) if isinstance(PLUGINS[name], Reversed) else kept
    if not actions:
        pending = state.pending
        assert pending is not None
        actions = [Pass(pending.player)]
    return tuple(actions), removed


def refusal(state: GameState, action: object) -> tuple[str, str] | None:
    try:
        ttr_core.apply(state, action)  # type: ignore[arg-type]
    except IllegalAction as err:
        return err.reason, str(err)
    return None


def check_position(state: GameState) -> None:
    legal, removed = reference(state)
    # Asked before the legal actions too: apply lists them itself.
    probe = next(iter(removed), None)
    if probe is not None:
        fresh = attrs.evolve(state)
        assert refusal(fresh, attrs.evolve(probe)) == (
            Reason.VETOED,
            f"{show(probe)} is not allowed by variant {removed[probe]!r}",
        )
    assert ttr_core.legal_actions(state) == legal
    for action, variant in removed.items():
        expected = (Reason.VETOED, f"{show(action)} is not allowed by variant {variant!r}")
        assert refusal(state, action) == expected  # a candidate object itself
        assert refusal(state, attrs.evolve(action)) == expected  # an equal one built elsewhere
    for action in legal:
        assert refusal(state, action) is None
        assert refusal(state, attrs.evolve(action)) is None
    pending = state.pending
    assert pending is not None
    # Fields of the wrong type: the field's own reason, whatever was removed.
    if pending.kind in ("turn", "second_card"):
        assert refusal(state, DrawFaceUp(pending.player, 4.0))[0] == Reason.BAD_SLOT  # type: ignore[arg-type, index]
        bad = ClaimRoute(pending.player, 2.0, "red", 0)  # type: ignore[arg-type]
        assert refusal(state, bad)[0] == Reason.UNKNOWN_ROUTE  # type: ignore[index]


@pytest.mark.usefixtures("strictness")
@pytest.mark.parametrize(
    "variants",
    [
        ["sp_slot"],
        ["sp_even", "sp_slot"],
        ["sp_rev", "sp_even"],
        ["sp_copy"],
        ["sp_keep", "sp_slot"],
    ],
    ids="+".join,
)
def test_filtered_legal_actions_and_refusals_match_a_plain_reimplementation(
    variants: list[str],
) -> None:
    for seed in range(3):
        state = ttr_core.new_game("newyork", 2, seed=seed, variants=variants)
        chooser = random.Random(seed)
        steps = 0
        while state.pending is not None and steps < 60:
            check_position(state)
            legal = ttr_core.legal_actions(state)
            state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
            steps += 1


def test_a_removed_action_of_another_type_is_not_compared_by_value() -> None:
    """An action of a type nothing was removed of goes straight to the core's checks."""
    state = ttr_core.new_game("newyork", 2, seed=1, variants=["sp_slot"])
    state = ttr_core.apply(state, ttr_core.legal_actions(state)[-1])  # keep tickets
    state = ttr_core.apply(state, ttr_core.legal_actions(state)[-1])
    assert state.pending is not None and state.pending.kind == "turn"
    seat = state.pending.player
    assert DrawFaceUp(seat, 4) not in ttr_core.legal_actions(state)
    assert refusal(state, DrawTickets(seat)) is None
    assert refusal(state, DrawFaceUp(seat, 3)) is None
    assert refusal(state, DrawFaceUp(seat, 4))[0] == Reason.VETOED  # type: ignore[index]


def test_payment_options_checked_and_unchecked_agree() -> None:
    """The public function checks its arguments (a fast check in C first), then
    does what the unchecked one the core and plugins may call does."""
    from ttr_core.model.payment import ANY_COLOR, unchecked_payment_options

    chooser = random.Random(5)
    for _ in range(500):
        kinds = chooser.randrange(2, 10)
        wild = chooser.randrange(kinds)
        counts = [chooser.randrange(6) for _ in range(kinds)]
        colour = chooser.choice([ANY_COLOR, *(c for c in range(kinds) if c != wild)])
        length = chooser.randrange(1, 7)
        for given in (counts, tuple(counts)):
            expected = unchecked_payment_options(colour, length, given, wild)
            assert ttr_core.payment_options(colour, length, given, wild) == expected
    for bad in ([1, True, 0], [1, -1, 0], [1.0, 0, 0], "abc"):
        with pytest.raises(ttr_core.ArgumentError):
            ttr_core.payment_options(0, 2, bad, 2)  # type: ignore[arg-type]
    with pytest.raises(ttr_core.ArgumentError, match="not the wild"):
        ttr_core.payment_options(2, 2, [1, 1, 1], 2)
