"""A hypothesis state machine that plays one decision at a time."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import attrs
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from ttr_core.checking.registry import (
    GamePlay,
    Invariant,
    Violation,
    _invariant_list,
    chosen_names,
    invariant_names,
    invariants_for,
    record_text,
    run_check,
)
from ttr_core.errors import IllegalAction
from ttr_core.hooks import checks as hookcheck
from ttr_core.model.actions import Action
from ttr_core.model.state import GameState
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.testing.check import PHASES, RulesViolation
from ttr_core.testing.strategies import (
    Game,
    MapsArg,
    OptionsArg,
    PlayersArg,
    VariantsArg,
    games,
    illegal_actions,
)

__all__ = ["RulesMachine", "rules_machine"]


class RulesMachine(RuleBasedStateMachine):
    """Plays games one decision at a time: a legal action, or a well-formed illegal
    one that must be refused with ``IllegalAction`` and leave the state as it
    was; every invariant is checked after each step, the game invariants when a
    game ends (a new one then starts). Build a configured subclass with
    :func:`rules_machine`; its ``TestCase`` is a unittest test case for pytest.
    """

    #: The games played (a strategy of :class:`~ttr_core.testing.Game`).
    game_strategy: ClassVar[st.SearchStrategy[Game]] = games()
    #: Invariant names to check (``None``: all) and to leave out.
    only: ClassVar[tuple[str, ...] | None] = None
    skip: ClassVar[tuple[str, ...]] = ()
    #: Invariants added for this machine.
    extra: ClassVar[tuple[Invariant, ...]] = ()

    def __init__(self) -> None:
        super().__init__()
        self._strict = hookcheck.set_strict(True)
        self.game: Game | None = None
        self.states: list[GameState] = []
        self.actions: list[Action] = []
        self.chosen: tuple[Invariant, ...] = ()

    @property
    def state(self) -> GameState:
        """The state of the game being played."""
        return self.states[-1]

    def _start(self, game: Game) -> None:
        self.game = game
        self.states = [game.new()]
        self.actions = []
        self.chosen = invariants_for(
            self.state.rules, only=self.only, skip=self.skip, extra=self.extra
        )
        self._check("game", self._play())  # a set-up that does not reproduce shows at once

    def _play(self) -> GamePlay:
        assert self.game is not None
        return GamePlay(tuple(self.states), tuple(self.actions), self.game.options)

    def _fail(self, violations: Sequence[Violation]) -> None:
        if violations:
            lines = [str(v) for v in violations]
            raise RulesViolation(
                f"{self.game!r} broke the rules:\n" + "\n".join(lines) + "\n"
                f"record: {record_text(self._play())}"
            )

    def _check(self, kind: str, *args: Any) -> None:
        step = len(self.actions)
        last = self.state.is_over
        self._fail(
            [
                violation
                for inv in self.chosen
                if inv.kind == kind and (inv.every == 1 or last or step % inv.every == 0)
                for violation in run_check(inv, step, *args)
            ]
        )

    @initialize(data=st.data())
    def start(self, data: st.DataObject) -> None:
        """Set up a game."""
        self._start(data.draw(self.game_strategy, label="game"))

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def play(self, data: st.DataObject) -> None:
        """Apply a legal action; check the step."""
        before = self.state
        action = data.draw(st.sampled_from(legal_actions(before)), label="action")
        try:
            after = apply(before, action)
        except Exception as exc:
            self._fail([Violation("play", f"listed {action!r} raised {exc!r}", len(self.actions))])
            raise
        self.actions.append(action)
        self.states.append(after)
        self._check("transition", before, action, after)

    @precondition(lambda self: not self.state.is_over)
    @rule(data=st.data())
    def refuse(self, data: st.DataObject) -> None:
        """Apply a well-formed illegal action: refused, the state unchanged."""
        state = self.state
        snapshot = attrs.evolve(state)
        legal = legal_actions(state)
        action = data.draw(illegal_actions(state), label="illegal action")
        try:
            apply(state, action)
        except IllegalAction:
            pass
        except Exception as exc:
            self._fail(
                [Violation("illegal_refused", f"{action!r} raised {exc!r}", len(self.actions))]
            )
        else:
            self._fail(
                [Violation("illegal_refused", f"unlisted {action!r} applied", len(self.actions))]
            )
        if state != snapshot or legal_actions(state) != legal:
            self._fail(
                [Violation("illegal_refused", f"{action!r} changed the state", len(self.actions))]
            )

    @precondition(lambda self: self.state.is_over)
    @rule(data=st.data())
    def next_game(self, data: st.DataObject) -> None:
        """Check the finished game as a whole, then set up another."""
        self._check("game", self._play())
        self._start(data.draw(self.game_strategy, label="game"))

    @invariant()
    def invariants_hold(self) -> None:
        """Every state invariant holds in the current state."""
        if self.states:
            self._check("state", self.state)

    def teardown(self) -> None:
        """Check the game invariants of the game left unfinished; leave strict mode."""
        try:
            if self.states:
                self._check("game", self._play())
        finally:
            hookcheck.set_strict(self._strict)


def rules_machine(
    map: MapsArg = None,
    variants: VariantsArg = None,
    *,
    players: PlayersArg = None,
    options: OptionsArg = None,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    invariants: Iterable[Invariant] = (),
) -> type[RulesMachine]:
    """A :class:`RulesMachine` for these games (arguments as for
    :func:`~ttr_core.testing.games`). Its ``TestCase`` runs with no deadline
    and no "explain" phase; set ``TestCase.settings`` for more. A name in
    ``only`` or ``skip`` that no invariant has raises
    :class:`~ttr_core.ArgumentError` at once, as for :func:`check_rules`. In a
    test module::

        Swap = ttr_core.testing.rules_machine("newyork", ["attractions", "swap"])
        Swap.TestCase.settings = hypothesis.settings(max_examples=50, deadline=None)
        TestSwap = Swap.TestCase
    """
    extra = _invariant_list(invariants)
    # Typos refused here, not in the first example (ArgumentError: "did you mean").
    wanted, dropped = chosen_names(only, skip, invariant_names(extra=extra))
    only_names = None if wanted is None else tuple(sorted(wanted))
    skip_names = tuple(sorted(dropped))
    machine: type[RulesMachine] = type(
        "RulesMachine",
        (RulesMachine,),
        {
            "game_strategy": games(map, variants, players, options),
            "only": only_names,
            "skip": skip_names,
            "extra": extra,
        },
    )
    machine.TestCase.settings = settings(
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        phases=PHASES,
    )
    return machine
