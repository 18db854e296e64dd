"""Calling the hooks of a game's rule set, every result checked.

The engine, the views, the scoring and the bots ask the variants through
these functions: each runs the implementations of a hook a game's variants
give (:class:`~ttr_core.model.gamerules.GameRules`, in the game's variant
order) and checks each result with :mod:`ttr_core.hooks.checks` before it is
used. A hook no variant of the game implements is never called (the caller
tests the rule set's tuple first where a call is on the hot path).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ttr_core.hooks import checks as hookcheck
from ttr_core.hooks import native_checks
from ttr_core.model.actions import Action, ClaimRoute
from ttr_core.model.board import Ticket
from ttr_core.model.declarations import (
    ActionPurpose,
    MoveWords,
    NativeRule,
    NonSeatOwner,
    RouteStyle,
    TicketEnds,
    Token,
)
from ttr_core.model.gamerules import GameRules
from ttr_core.model.scores import ScoreLine, ScoreSheet
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView

#: What the variants' filters removed from one state's candidates, for ``apply``
#: (which refuses those actions, ``vetoed_by_variant``): for each filter that
#: removed something, in order, the variant's name followed by the actions it
#: removed (flat, in one list: a name is a ``str``, never an action). Worked
#: out without hashing any action (see :func:`_left_out`).
FilteredOut = list["str | Action"]


def _left_out(candidates: tuple[Action, ...], kept: Sequence[Action]) -> list[Action] | None:
    """The candidates missing from ``kept`` when ``kept`` is the candidates with
    some left out, in their order, as the same objects (what a filter that
    keeps what it was given returns); else ``None``.

    One pass comparing objects by identity: neither hashes an action nor
    calls its ``__eq__``. A match of every kept object also shows that each
    is a candidate and none is kept twice (the candidates are distinct
    objects), the checks ``hookcheck.filtered`` makes by value.
    """
    left: list[Action] = []
    j = 0
    size = len(kept)
    for action in candidates:
        if j < size and kept[j] is action:
            j += 1
        else:
            left.append(action)
    return left if j == size else None


#: The argument names of a ttr_filter_actions implementation that run_filter
#: calls directly (any other is called through its HookImpl).
_ACTIONS = ("actions",)
_STATE_ACTIONS = ("state", "actions")


# -- chained state hooks ------------------------------------------------------------


def run_setup(rules: GameRules, state: GameState) -> GameState:
    """Run the ``ttr_setup`` chain (results always fully checked: once per game)."""
    for impl in rules.setup:
        state = hookcheck.state_result(impl, state, impl(state), full=True)
    return state


def run_after_claim(rules: GameRules, state: GameState, player: int, route: int) -> GameState:
    """Run the ``ttr_after_claim`` chain.

    A link may open a decision of the seat deciding the claim (checked:
    :func:`~ttr_core.hooks.checks.after_claim_decision`); the claim's turn
    then waits for it, and the next links run on the state that waits.
    """
    full = hookcheck.STRICT[0]
    deciding = state.pending
    opened = None
    for impl in rules.after_claim:
        before = state.pending
        result = impl(state, player, route)
        state = hookcheck.state_result(impl, state, result, full=full)
        pending = state.pending
        if pending is not before and pending != before:
            hookcheck.after_claim_decision(impl, deciding, pending, opened)
            opened = impl
    return state


def run_before_claim(rules: GameRules, state: GameState, action: ClaimRoute) -> GameState | None:
    """The first ``ttr_before_claim`` answer that makes ``action`` wait, or ``None``."""
    for impl in rules.before_claim:
        result = impl(state, action)
        if result is not None:
            return hookcheck.claim_waits(impl, state, action, result)
    return None


def run_between_turns(rules: GameRules, state: GameState) -> GameState:
    """Run the ``ttr_between_turns`` chain."""
    full = hookcheck.STRICT[0]
    for impl in rules.between_turns:
        state = hookcheck.state_result(impl, state, impl(state), full=full)
    return state


def run_game_over(rules: GameRules, state: GameState) -> GameState:
    """Run the ``ttr_game_over`` chain (fully checked; the game must stay over)."""
    for impl in rules.game_over:
        state = hookcheck.state_result(impl, state, impl(state), full=True)
        hookcheck.still_over(impl, state)
    return state


# -- actions ------------------------------------------------------------------------


def run_veto(rules: GameRules, state: GameState, action: Action) -> str | None:
    """The first veto any plugin gives ``action``, or ``None``."""
    for impl in rules.veto:
        reason = impl(state, action)
        if reason is not None:
            return hookcheck.veto_reason(impl, reason)
    return None


def run_filter(
    rules: GameRules, state: GameState, actions: list[Action]
) -> tuple[list[Action], FilteredOut | None]:
    """The candidates the filters keep, and what they removed (``None`` when
    nothing was): see :data:`FilteredOut`."""
    removed: FilteredOut | None = None
    strict = hookcheck.STRICT
    for impl in rules.filter:
        candidates = tuple(actions)  # immutable: a filter answers, it cannot edit
        if impl.trace:
            result = impl(state, candidates)
        else:
            # HookImpl.__call__ inlined, and the plugin's function called with
            # the arguments it names without the adapter's frame: the filter
            # hook runs at every decision.
            try:
                names = impl.argnames
                if names == _ACTIONS:
                    result = impl.function(candidates)
                elif names == _STATE_ACTIONS:
                    result = impl.function(state, candidates)
                else:
                    result = impl(state, candidates)
            except Exception as exc:
                blamed = impl.blame(exc)
                if blamed is exc:
                    raise
                raise blamed from exc
        if type(result) is list and len(result) < len(candidates) and not strict[0]:
            # The usual filter: some of the candidates, as the same objects,
            # in order. _left_out, inlined (the hot path of a filter that
            # removes something): the variant, then what it removed.
            gone: FilteredOut = [impl.variant]
            j = 0
            size = len(result)
            for action in candidates:
                if j < size and result[j] is action:
                    j += 1
                else:
                    gone.append(action)
            if j == size:
                removed = gone if removed is None else removed + gone
                actions = result  # the plugin's new list: the core never edits it
                continue
        if result is None or result is candidates:
            continue
        # Anything else is checked in full, by value; ``kept`` are then
        # candidate objects (an equal copy is replaced by its candidate).
        kept = hookcheck.filtered(impl, candidates, result, strict=strict[0])
        if kept is candidates:
            continue
        left = _left_out(candidates, kept)
        if left is None:  # reordered
            ids = set(map(id, kept))
            left = [action for action in candidates if id(action) not in ids]
        gone = [impl.variant, *left]
        removed = gone if removed is None else removed + gone
        actions = list(kept)
    return actions, removed


def run_extra_actions(rules: GameRules, state: GameState) -> list[Action]:
    """The variant actions legal in ``state``, in variant order."""
    assert state.pending is not None
    seat = state.pending.player
    found: list[Action] = []
    for impl in rules.extra_actions:
        result = impl(state)
        if result:
            found.extend(hookcheck.extra_actions(impl, result, seat))
    return found


def run_apply_action(rules: GameRules, state: GameState, action: Action) -> GameState | None:
    """The state a plugin's ``ttr_apply_action`` returns, or ``None`` if none took it."""
    for impl in rules.apply_action:
        result = impl(state, action)
        if result is not None:
            return hookcheck.state_result(impl, state, result, full=hookcheck.STRICT[0])
    return None


def run_deal_tickets(
    rules: GameRules, state: GameState, seat: int, count: int, start: bool
) -> tuple[int, ...] | None:
    """The first ``ttr_deal_tickets`` answer (checked), or ``None`` for the core's deal."""
    for impl in rules.deal_tickets:
        result = impl(state, seat, count, start)
        if result is not None:
            return hookcheck.dealt_tickets(impl, result, state.ticket_deck, count)
    return None


def run_native_rules(rules: GameRules) -> dict[str, tuple[NativeRule, ...] | None]:
    """Each variant's ``ttr_native_rules`` answer (checked), by variant name."""
    return {
        impl.variant: native_checks.native_rules(impl, impl(rules), rules.board)
        for impl in rules.native_rules
    }


# -- scoring and views ---------------------------------------------------------------


def run_score_lines(rules: GameRules, state: GameState) -> list[list[tuple[ScoreLine, ...]]]:
    """Each variant's score lines, one tuple per seat, in variant order."""
    return [
        hookcheck.score_lines(impl, impl(state), state.num_players) for impl in rules.score_lines
    ]


def run_ticket_connections(rules: GameRules, state: GameState, seat: int) -> set[int]:
    """The routes the variants let ``seat`` use for its tickets besides its own
    (hook ``ttr_ticket_connections``), merged."""
    found: set[int] = set()
    routes = len(rules.board.routes)
    for impl in rules.ticket_connections:
        found.update(hookcheck.ticket_connections(impl, impl(state, seat), routes))
    return found


def run_ticket_ends(rules: GameRules, ticket: Ticket) -> TicketEnds | None:
    """What completes ``ticket``, as the first variant that decides it tells
    (hook ``ttr_ticket_ends``), or ``None``."""
    board = rules.board
    for impl in rules.ticket_ends:
        result = impl(board, ticket)
        if result is not None:
            return hookcheck.ticket_ends(impl, result, len(board.locations))
    return None


def run_tie_break(
    rules: GameRules, state: GameState, sheets: Sequence[ScoreSheet], tied: tuple[int, ...]
) -> tuple[int, ...]:
    """The winners left once every variant's tie-break has narrowed ``tied``."""
    for impl in rules.tie_break:
        if len(tied) < 2:
            break
        result = impl(state, sheets, tied)
        if result is not None:
            tied = hookcheck.tie_break(impl, tied, result)
    return tied


def run_player_view(rules: GameRules, state: GameState, player: int) -> dict[str, Any]:
    """The variant state ``player`` may see, merged from every variant."""
    shown: dict[str, Any] = {}
    owner: dict[str, str] = {}
    for impl in rules.player_view:
        result = impl(state, player)
        if result is not None:
            for key, value in hookcheck.view(impl, result, owner).items():
                owner[key] = impl.variant
                shown[key] = value
    return shown


def run_determinize(
    rules: GameRules, state: GameState, view: PlayerView, rng: random.Random
) -> GameState:
    """Run the ``ttr_determinize`` chain (results always fully checked: once per call)."""
    for impl in rules.determinize:
        state = hookcheck.determinized(impl, state, impl(state, view, rng))
    return state


def run_check_state(rules: GameRules, state: GameState) -> list[tuple[str, str]]:
    """Every variant's own broken invariants, as ``(variant, sentence)`` pairs."""
    return [
        (impl.variant, problem)
        for impl in rules.check_state
        for problem in hookcheck.messages(impl, impl(state))
    ]


def run_check_transition(
    rules: GameRules, before: GameState, action: Action, after: GameState
) -> list[tuple[str, str]]:
    """Every variant's broken invariants across the step ``before`` → ``action``
    → ``after`` (hook ``ttr_check_transition``), as ``(variant, sentence)`` pairs."""
    return [
        (impl.variant, problem)
        for impl in rules.check_transition
        for problem in hookcheck.messages(impl, impl(before, action, after))
    ]


def run_agent_route_costs(rules: GameRules, view: PlayerView) -> list[float]:
    """The variants' advice to bots (``ttr_agent_route_costs``), summed per
    route: what claiming each route costs the viewing seat beyond what
    its score sheet shows at once (all 0 when no variant advises)."""
    costs = [0.0] * len(rules.board.routes)
    for impl in rules.agent_route_costs:
        result = impl(view)
        if result is not None:
            advice = hookcheck.route_costs(impl, result, len(costs))
            costs = [a + b for a, b in zip(costs, advice, strict=True)]
    return costs


def run_describe_action(
    rules: GameRules, before: GameState, action: Action, after: GameState, full: bool
) -> str | None:
    """A variant's action in words: the first variant's answer, or ``None``."""
    for impl in rules.describe_action:
        words = hookcheck.description(impl, impl(before, action, after, full))
        if words is not None:
            return words
    return None


def run_describe_effects(
    rules: GameRules, before: GameState, action: Action, after: GameState, full: bool
) -> list[str]:
    """Every variant's consequences of an action in words (hook
    ``ttr_describe_effects``), in variant order."""
    return [
        line
        for impl in rules.describe_effects
        for line in hookcheck.word_lines(impl, impl(before, action, after, full))
    ]


def run_move_words(rules: GameRules, view: PlayerView, action: Action) -> MoveWords | None:
    """A variant's legal action in words for the deciding seat: the first
    variant's answer (hook ``ttr_move_words``), or ``None``."""
    for impl in rules.move_words:
        words = hookcheck.move_words(impl, impl(view, action), rules.board)
        if words is not None:
            return words
    return None


def run_move_notes(rules: GameRules, view: PlayerView, action: Action) -> list[str]:
    """Every variant's notes on a legal action (hook ``ttr_move_notes``), in
    variant order."""
    return [
        note for impl in rules.move_notes for note in hookcheck.word_lines(impl, impl(view, action))
    ]


def run_view_words(rules: GameRules, view: PlayerView) -> list[str]:
    """Every variant's part of a view in words (hook ``ttr_view_words``), in
    variant order."""
    return [line for impl in rules.view_words for line in hookcheck.word_lines(impl, impl(view))]


def run_tokens(rules: GameRules, game: GameState | PlayerView) -> list[Token]:
    """The variants' tokens on the board, in variant order."""
    found: list[Token] = []
    for impl in rules.tokens:
        result = impl(game)
        if result is not None:
            found.extend(hookcheck.tokens(impl, result, rules.board, rules.players))
    return found


def run_route_styles(rules: GameRules) -> list[RouteStyle]:
    """How the variants draw their routes (hook ``ttr_route_styles``), in
    variant order; called once per picture."""
    found: list[RouteStyle] = []
    for impl in rules.route_styles:
        result = impl(rules.board, rules)
        if result is not None:
            found.extend(hookcheck.route_styles(impl, result, rules.board))
    return found


def run_agent_action_purpose(
    rules: GameRules, view: PlayerView, action: Action
) -> ActionPurpose | None:
    """What ``action`` is for, as the first variant that knows tells bots
    (``ttr_agent_action_purpose``); ``None`` when none does."""
    for impl in rules.agent_action_purpose:
        result = impl(view, action)
        if result is not None:
            board = rules.board
            return hookcheck.action_purpose(impl, result, len(board.routes), len(board.locations))
    return None


def run_non_seat_owners(rules: GameRules, state: GameState) -> list[NonSeatOwner]:
    """The non-seat owners the variants declare, in variant order."""
    found: list[NonSeatOwner] = []
    for impl in rules.non_seat_owners:
        result = impl(state)
        if result is not None:
            found.extend(hookcheck.non_seat_owners(impl, result, state, found))
    return found
