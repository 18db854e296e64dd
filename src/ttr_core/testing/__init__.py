"""Property-based verification of rules, variants and maps, on hypothesis.

For a variant or map author, one line::

    import ttr_core.testing

    ttr_core.testing.check_rules(map="newyork", variants=["attractions", "swap"], examples=200)

plays whole games chosen by hypothesis and checks every invariant after
every action — the core's (cards and tickets conserved, cars and routes
accounted for, scores summed, ``legal_actions`` exact, views that leak
nothing, games that end and replay) and each variant's own (hook
``ttr_check_state``) — in strict mode. A broken invariant raises
:class:`RulesViolation`, shrunk to a short game whose JSON record ends the
message. Also here: strategies (:func:`games`, :func:`states`,
:func:`legal_actions_of`, :func:`illegal_actions`), a state machine
(:func:`rules_machine`), the invariant registry (:func:`invariant`,
:func:`register_invariant`) and golden action counts
(:mod:`ttr_core.testing.perft`). ``docs/testing.md`` is the guide; ``ttr
verify`` runs the same invariants from the command line without hypothesis.

Needs hypothesis: ``pip install '.[testing]'`` in a clone of ttr-core.
"""

from __future__ import annotations

try:
    import hypothesis  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised in a separate environment
    raise ImportError(
        "ttr_core.testing needs hypothesis: pip install '.[testing]' in a clone of ttr-core "
        "(pip install 'ttr-core[testing]' once it is on the package index; "
        "ttr verify works without it)"
    ) from exc

from ttr_core.checking.invariants import CORE_INVARIANTS, action_bound
from ttr_core.checking.registry import (
    GamePlay,
    Invariant,
    Violation,
    check_game,
    check_state,
    check_transition,
    invariant,
    invariant_names,
    invariants_for,
    register_invariant,
    registered_invariants,
    unregister_invariant,
)
from ttr_core.checking.verify import GameReport, play_checked, verify
from ttr_core.testing.check import RulesViolation, check_rules, play_game, rules_test
from ttr_core.testing.machine import RulesMachine, rules_machine
from ttr_core.testing.strategies import (
    Game,
    games,
    illegal_actions,
    legal_actions_of,
    option_values,
    states,
)

__all__ = [
    "CORE_INVARIANTS",
    "Game",
    "GamePlay",
    "GameReport",
    "Invariant",
    "RulesMachine",
    "RulesViolation",
    "Violation",
    "action_bound",
    "check_game",
    "check_rules",
    "check_state",
    "check_transition",
    "games",
    "illegal_actions",
    "invariant",
    "invariant_names",
    "invariants_for",
    "legal_actions_of",
    "option_values",
    "play_checked",
    "play_game",
    "register_invariant",
    "registered_invariants",
    "rules_machine",
    "rules_test",
    "states",
    "unregister_invariant",
    "verify",
]
