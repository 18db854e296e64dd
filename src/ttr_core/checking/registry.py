"""The invariant registry behind ``ttr_core.testing`` and ``ttr verify``.

An invariant is a named check that must hold in every game, whatever the
map, the variants and the choices made. It returns (or yields) one sentence
per problem found, and nothing when it holds. Three kinds:

* ``"state"`` invariants look at one state: ``check(state)``;
* ``"transition"`` invariants at one step: ``check(before, action, after)``;
* ``"game"`` invariants at a whole game played so far: ``check(play)``, a
  :class:`GamePlay`.

The core's invariants are registered here; a plugin adds its own through
the hook ``ttr_check_state`` (they appear as ``"<variant>.check_state"``);
an author adds more in Python with :func:`invariant` or
:func:`register_invariant`. Nothing here needs hypothesis: ``ttr verify``
uses it with plain seeded random games. The public names are re-exported
by ``ttr_core.testing`` (see ``docs/testing.md``).
"""

from __future__ import annotations

import difflib
import itertools
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Literal

import attrs

from ttr_core.data.messages import to_json
from ttr_core.data.records import GameRecord, record_of
from ttr_core.errors import ArgumentError, TtrError, show
from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks.manager import installed_plugins
from ttr_core.model.actions import (
    Action,
)
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    GameState,
)

__all__ = [
    "GamePlay",
    "Invariant",
    "Kind",
    "Violation",
    "check_game",
    "check_state",
    "check_transition",
    "chosen_names",
    "invariant",
    "invariant_names",
    "invariants_for",
    "record_text",
    "register_invariant",
    "registered_invariants",
    "run_check",
    "unknown_invariant",
    "unregister_invariant",
]


Kind = Literal["state", "transition", "game"]


_KINDS = ("state", "transition", "game")


@attrs.frozen
class Invariant:
    """A named check over states, steps or whole games.

    ``check`` returns an iterable of problem sentences (or ``None``) and takes
    ``(state)``, ``(before, action, after)`` or ``(play)`` as ``kind`` says.
    ``variants`` limits it to games that play all of those variants (empty:
    every game). ``every`` checks a costly state or transition invariant on
    every ``every``-th step only (and always on a game's last state).
    """

    name: str
    kind: Kind
    check: Callable[..., Iterable[str] | None] = attrs.field(eq=False, repr=False)
    doc: str = ""
    variants: frozenset[str] = frozenset()
    every: int = 1

    def applies(self, rules: GameRules) -> bool:
        """Whether this invariant is checked in games of ``rules``."""
        return self.variants <= set(rules.variants)


@attrs.frozen
class Violation:
    """One broken invariant: its name, what is wrong, and after how many actions.

    ``step`` counts the actions applied since ``new_game`` (0: the state
    ``new_game`` returned).
    """

    invariant: str
    message: str
    step: int

    def __str__(self) -> str:
        return f"{self.invariant}: {self.message} (after {self.step} actions)"


@attrs.frozen(repr=False)
class GamePlay:
    """A game played so far: every state from ``new_game`` on and the actions between.

    ``states[i + 1]`` is ``apply(states[i], actions[i])``; ``options`` are the
    options the game was set up with.
    """

    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    options: Mapping[str, Mapping[str, Any]] = attrs.field(factory=dict)
    #: The most actions the game may take (``None``: :func:`action_bound`).
    max_actions: int | None = None

    @property
    def state(self) -> GameState:
        """The last state."""
        return self.states[-1]

    def __repr__(self) -> str:
        first = self.states[0]
        return (
            f"GamePlay({first.board.id!r}, {first.num_players} players, variants "
            f"{list(first.rules.variants)}, seed {first.seed}, {len(self.actions)} actions)"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The short repr, also in hypothesis' reports (``.record`` has the whole game)."""
        printer.text(repr(self))

    @property
    def record(self) -> GameRecord:
        """The game's record (``ttr_core.to_json`` writes it, ``ttr_core.replay`` replays it)."""
        return record_of(self.states[0], self.actions, self.options)


#: Replaced, never changed in place (copy on write, under the lock): a check
#: running in another thread looks over the registry it read.
_REGISTRY: dict[str, Invariant] = {}


_REGISTRY_LOCK = threading.Lock()


def register_invariant(inv: Invariant) -> Invariant:
    """Add ``inv`` to the registry (replacing any invariant of the same name)."""
    if inv.kind not in _KINDS:
        raise ValueError(f"an invariant's kind is one of {', '.join(_KINDS)}, not {inv.kind!r}")
    if inv.every < 1:
        raise ValueError(f"an invariant's 'every' is at least 1, not {inv.every}")
    global _REGISTRY
    with _REGISTRY_LOCK:
        _REGISTRY = {**_REGISTRY, inv.name: inv}
    return inv


def unregister_invariant(name: str) -> None:
    """Remove the invariant called ``name`` from the registry (``KeyError`` if absent)."""
    global _REGISTRY
    with _REGISTRY_LOCK:
        if name not in _REGISTRY:
            raise KeyError(name)
        _REGISTRY = {key: inv for key, inv in _REGISTRY.items() if key != name}


def invariant(
    name: str | None = None,
    *,
    kind: Kind = "state",
    variants: Iterable[str] = (),
    every: int = 1,
) -> Callable[[Callable[..., Iterable[str] | None]], Callable[..., Iterable[str] | None]]:
    """Register the decorated function as an invariant (named after it by default).

    The function returns or yields one sentence per problem::

        @ttr_core.testing.invariant(variants=["swap"])
        def swap_flags_are_per_seat(state):
            if len(state.variant("swap")) != state.num_players:
                yield "one swap flag per seat"
    """

    def register(
        function: Callable[..., Iterable[str] | None],
    ) -> Callable[..., Iterable[str] | None]:
        doc = (function.__doc__ or "").strip().split("\n\n")[0]
        register_invariant(
            Invariant(
                name or function.__name__,
                kind,
                function,
                " ".join(doc.split()),
                frozenset(variants),
                every,
            )
        )
        return function

    return register


def registered_invariants() -> tuple[Invariant, ...]:
    """Every invariant in the registry, core ones first, in registration order."""
    return tuple(_REGISTRY.values())


def invariants_for(
    rules: GameRules,
    *,
    only: Iterable[str] | None = None,
    skip: Iterable[str] = (),
    extra: Iterable[Invariant] = (),
) -> tuple[Invariant, ...]:
    """The invariants checked in a game of ``rules``: the registry's that apply,
    then each variant's own — ``"<variant>.check_state"`` (hook
    ``ttr_check_state``) and ``"<variant>.check_transition"`` (hook
    ``ttr_check_transition``) per variant implementing them, in variant order —
    then those of ``extra`` that apply; ``only`` keeps those names, ``skip``
    drops these. A name in ``only`` or ``skip`` that no invariant has (see
    :func:`invariant_names`) raises :class:`~ttr_core.ArgumentError` with the
    closest names and the list; so does an empty ``only``."""
    extra = _invariant_list(extra)
    found = _applicable(rules, extra)
    wanted, dropped = chosen_names(only, skip, [*invariant_names(extra=extra), *_names(found)])
    return tuple(
        inv for inv in found if inv.name not in dropped and (wanted is None or inv.name in wanted)
    )


def _applicable(rules: GameRules, extra: Sequence[Invariant]) -> list[Invariant]:
    found = [inv for inv in _REGISTRY.values() if inv.applies(rules)]
    found += _plugin_invariants(rules)
    found += [inv for inv in extra if inv.applies(rules)]
    return found


def _names(invariants: Iterable[Invariant]) -> list[str]:
    return [inv.name for inv in invariants]


def _invariant_list(extra: Iterable[Invariant]) -> tuple[Invariant, ...]:
    if isinstance(extra, (str, bytes)) or not isinstance(extra, Iterable):
        raise ArgumentError(f"invariants must be a list of Invariant objects, not {show(extra)}")
    found = tuple(extra)
    for inv in found:
        if not isinstance(inv, Invariant):
            raise ArgumentError(f"invariants must be Invariant objects, not {show(inv)}")
    return found


def invariant_names(
    rules: GameRules | None = None, *, extra: Iterable[Invariant] = ()
) -> tuple[str, ...]:
    """The names of the invariants, for ``only`` and ``skip``: with ``rules``, those
    checked in games of that configuration (:func:`invariants_for`); without,
    every name there is — the registry's, then ``"<variant>.check_state"`` and
    ``"<variant>.check_transition"`` of each installed variant implementing the
    hook — then those of ``extra``."""
    extra = _invariant_list(extra)
    if rules is not None:
        return tuple(_names(_applicable(rules, extra)))
    names = list(_REGISTRY)
    for variant, plugin in sorted(installed_plugins().items()):
        names += [f"{variant}.{kind}" for kind, hook in _PLUGIN_KINDS if hook in plugin.impls]
    names += _names(extra)
    return tuple(dict.fromkeys(names))


def chosen_names(
    only: Iterable[str] | None, skip: Iterable[str], known: Sequence[str]
) -> tuple[frozenset[str] | None, frozenset[str]]:
    """``only`` and ``skip`` as sets of names, each checked to be one of ``known``:
    :class:`~ttr_core.ArgumentError` for a name that is not (with the closest
    known names: "did you mean ...?", and the list), for an ``only`` naming none,
    and for anything but a list of strings."""
    known = tuple(dict.fromkeys(known))
    wanted = None if only is None else _name_list("only", only, known)
    if wanted is not None and not wanted:
        raise ArgumentError(
            "only names no invariant, so nothing would be checked: give at least one name "
            f"(or None for all): {', '.join(known)}"
        )
    return wanted, _name_list("skip", skip, known)


def _name_list(argument: str, names: Iterable[str], known: Sequence[str]) -> frozenset[str]:
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise ArgumentError(
            f"{argument} must be a list of invariant names, not {type(names).__name__} "
            f"{show(names)}"
        )
    given = list(itertools.islice(names, _MAX_NAMES + 1))
    if len(given) > _MAX_NAMES:
        raise ArgumentError(f"{argument} names more than {_MAX_NAMES} invariants")
    listed = set(known)
    for name in given:
        if not isinstance(name, str):
            raise ArgumentError(
                f"{argument} must name invariants by str, not {type(name).__name__} {show(name)}"
            )
        if name not in listed:
            raise ArgumentError(unknown_invariant(argument, name, known))
    return frozenset(given)


#: The most names ``only`` or ``skip`` may give.
_MAX_NAMES = 10_000


def unknown_invariant(argument: str, name: str, known: Sequence[str]) -> str:
    """The message for ``name``, given in ``argument``, that is not one of ``known``."""
    close = difflib.get_close_matches(name, list(known), n=3)
    listed = ", ".join(known) or "none"
    missing = f"{argument}: no invariant is called {show(name)}"
    if close:
        hint = " or ".join(repr(c) for c in close)
        return f"{missing}; did you mean {hint}? (the invariants: {listed})"
    return f"{missing}; choose among: {listed}"


#: The plugin invariants: the name each gets after the variant's, and its hook.
_PLUGIN_KINDS = (("check_state", "ttr_check_state"), ("check_transition", "ttr_check_transition"))


def _plugin_invariants(rules: GameRules) -> list[Invariant]:
    """Each variant's invariants from its hooks, in variant order, its state
    invariant before its transition one."""
    found: list[tuple[int, int, Invariant]] = []
    order = {variant: i for i, variant in enumerate(rules.variants)}
    for impl in rules.check_state:

        def check(state: GameState, impl: Any = impl) -> list[str]:
            return hookcheck.messages(impl, impl(state))

        doc = f"the {impl.variant!r} variant's own invariants (hook ttr_check_state)"
        inv = Invariant(f"{impl.variant}.check_state", "state", check, doc)
        found.append((order.get(impl.variant, 0), 0, inv))
    for impl in rules.check_transition:

        def step(
            before: GameState, action: Action, after: GameState, impl: Any = impl
        ) -> list[str]:
            return hookcheck.messages(impl, impl(before, action, after))

        doc = f"the {impl.variant!r} variant's own invariants across a step (hook {impl.hook})"
        inv = Invariant(f"{impl.variant}.check_transition", "transition", step, doc)
        found.append((order.get(impl.variant, 0), 1, inv))
    return [inv for _, _, inv in sorted(found, key=lambda item: item[:2])]


def run_check(inv: Invariant, step: int, *args: Any) -> list[Violation]:
    """Run one invariant: its problems as :class:`Violation` s at ``step`` (an exception
    raised while checking is one too)."""
    try:
        found = inv.check(*args)
        problems = [] if found is None else list(found)
    except AssertionError as exc:
        problems = [str(exc) or "assertion failed"]
    except Exception as exc:  # a crash while checking is a finding too
        problems = [f"raised {type(exc).__name__}: {exc}"]
    return [Violation(inv.name, str(problem), step) for problem in problems]


def check_state(
    state: GameState, invariants: Iterable[Invariant] | None = None, step: int = 0
) -> list[Violation]:
    """The state invariants ``state`` breaks (every applicable one, ``every`` ignored)."""
    chosen = invariants_for(state.rules) if invariants is None else invariants
    return [v for inv in chosen if inv.kind == "state" for v in run_check(inv, step, state)]


def check_transition(
    before: GameState,
    action: Action,
    after: GameState,
    invariants: Iterable[Invariant] | None = None,
    step: int = 1,
) -> list[Violation]:
    """The transition invariants the step ``before`` → ``action`` → ``after`` breaks."""
    chosen = invariants_for(before.rules) if invariants is None else invariants
    return [
        v
        for inv in chosen
        if inv.kind == "transition"
        for v in run_check(inv, step, before, action, after)
    ]


def check_game(play: GamePlay, invariants: Iterable[Invariant] | None = None) -> list[Violation]:
    """The game invariants a game played so far breaks."""
    chosen = invariants_for(play.state.rules) if invariants is None else invariants
    step = len(play.actions)
    return [v for inv in chosen if inv.kind == "game" for v in run_check(inv, step, play)]


def record_text(play: GamePlay) -> str:
    """The game's record as JSON (``ttr replay`` reads it), or a readable fallback
    when a variant action has no declared JSON tag."""
    try:
        return to_json(play.record)
    except TtrError as exc:
        record = play.record
        return (
            f"(no JSON record: {exc}) map={record.map!r} players={record.players} "
            f"variants={list(record.variants)} options={dict(record.options)} "
            f"seed={record.seed} actions={list(record.actions)!r}"
        )
