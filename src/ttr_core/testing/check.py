"""``check_rules``: whole games chosen by hypothesis, every invariant after every action."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ttr_core.checking.registry import (
    Invariant,
    _invariant_list,
    chosen_names,
    invariant_names,
    invariants_for,
)
from ttr_core.checking.verify import GameReport, play_checked
from ttr_core.errors import ArgumentError
from ttr_core.model.actions import Action
from ttr_core.model.board import Board
from ttr_core.model.state import GameState
from ttr_core.testing.strategies import Game, MapsArg, OptionsArg, PlayersArg, VariantsArg, games

__all__ = ["PHASES", "RulesViolation", "check_rules", "play_game", "rules_test"]


#: Hypothesis' phases the kit runs: all but "explain", which replays a failing
#: game hundreds of times to say which choices mattered (the record says more).
PHASES = tuple(phase for phase in Phase if phase.name != "explain")


class RulesViolation(AssertionError):
    """A game broke an invariant. The message names each invariant broken and ends
    with the JSON record of the game up to that step (``ttr replay`` reads it;
    ``ttr_core.replay(ttr_core.from_json(text, ttr_core.GameRecord))`` rebuilds
    every state)."""


def play_game(
    game: Game,
    rng: random.Random,
    *,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    invariants: Iterable[Invariant] = (),
    max_actions: int | None = None,
) -> GameReport:
    """Play ``game`` to its end choosing with ``rng`` (uniformly among the legal
    actions), checking every invariant after every action (``only``/``skip`` by
    name, ``invariants`` added); the report of :func:`ttr_core.checking.verify.play_checked`."""
    state = game.new()
    chosen = invariants_for(state.rules, only=only, skip=skip, extra=invariants)

    def choose(_: GameState, legal: Sequence[Action]) -> Action:
        return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]

    return play_checked(
        state, choose, invariants=chosen, options=game.options, max_actions=max_actions
    )


def check_rules(
    map: MapsArg = None,
    variants: VariantsArg = None,
    *,
    players: PlayersArg = None,
    options: OptionsArg = None,
    examples: int = 100,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    invariants: Iterable[Invariant] = (),
    max_actions: int | None = None,
) -> None:
    """Play ``examples`` whole games chosen by hypothesis and check every invariant
    after every action; raise :class:`RulesViolation` for the first broken one,
    shrunk to a short game whose JSON record ends the message.

    ``map``, ``variants``, ``players`` and ``options`` are as for
    :func:`~ttr_core.testing.games` (``None``: any built-in map, its default
    variants, every player count they allow, options drawn from their
    declarations). ``only`` and ``skip`` choose invariants by name,
    ``invariants`` adds some for this call only. Hypothesis' settings profile
    in force applies (database, verbosity), with ``examples`` as
    ``max_examples``, no deadline and no "explain" phase (:data:`PHASES`); hook
    results are checked in strict mode.

    A name in ``only`` or ``skip`` that no invariant has raises
    :class:`~ttr_core.ArgumentError` before any game is played, with the
    closest names ("did you mean ...?") and the list
    (:func:`~ttr_core.checking.registry.invariant_names`); so does an empty ``only``,
    and an ``only`` none of whose invariants was checked in any game played
    (it names invariants of variants the games do not play).
    """
    strategy = games(map, variants, players, options)
    extra = _invariant_list(invariants)
    wanted, dropped = chosen_names(only, skip, invariant_names(extra=extra))
    only_names = None if wanted is None else tuple(sorted(wanted))
    skipped = tuple(sorted(dropped))
    checked: set[str] = set()

    @settings(
        max_examples=examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=PHASES,
    )
    @given(game=strategy, rng=st.randoms(use_true_random=False))
    def rules_hold(game: Game, rng: random.Random) -> None:
        report = play_game(
            game, rng, only=only_names, skip=skipped, invariants=extra, max_actions=max_actions
        )
        checked.update(report.checks)
        if not report.ok:
            raise RulesViolation(f"{game!r} broke the rules:\n{report.failure()}")

    # Hypothesis keys its database of failing examples by the test function: one
    # for every call here. Each configuration gets its own key, so that a failure
    # saved by one call (another map, a broken variant) is not replayed in the
    # games of the next.
    config = (map, variants, players, options, only_names, skipped, max_actions)
    rules_hold.hypothesis.inner_test._hypothesis_internal_add_digest = hashlib.sha256(  # type: ignore[attr-defined]
        repr(config).encode("utf-8", "backslashreplace")
    ).digest()
    rules_hold()
    if wanted is not None and not wanted & checked:
        raise ArgumentError(
            f"only: none of {', '.join(sorted(wanted))} was checked in the games played "
            "(an invariant of a variant they do not play?)"
        )


def rules_test(
    map: MapsArg = None,
    variants: VariantsArg = None,
    **kwargs: Any,
) -> Callable[[], None]:
    """A test function for pytest that runs :func:`check_rules` with these arguments::

    test_swap_rules = ttr_core.testing.rules_test("newyork", ["attractions", "swap"])
    """

    def test_rules() -> None:
        check_rules(map, variants, **kwargs)

    shown = map.id if isinstance(map, Board) else map
    test_rules.__doc__ = f"check_rules({shown!r}, {variants!r}, {kwargs!r})"
    return test_rules
