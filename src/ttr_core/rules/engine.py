"""The rules engine: set up a game, list legal actions, apply an action.

Pure functions over frozen states. Chance comes only from the seed carried
in the state: every shuffle uses a generator seeded by ``(seed, number of
shuffles so far)``, so ``(map, players, variants, seed, actions)`` reproduce a
game exactly.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable
from typing import Any

from ttr_core.errors import (
    ArgumentError,
    IllegalAction,
    PluginError,
    Reason,
    StaleMoveError,
    show,
    what,
)
from ttr_core.hooks import calls
from ttr_core.hooks.calls import FilteredOut
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
    keep_choices,
)
from ttr_core.model.board import turn_wild
from ttr_core.model.state import (
    GameState,
    PendingKind,
    PlayerState,
    check_state,
    replace_state,
)
from ttr_core.rules.checks import (
    _check_seat,
    _claim_error,
    _field_error,
    _refused_fields,
    _some,
    _wrong_phase,
    face_up_card,
)
from ttr_core.rules.kernel import rules as kernel
from ttr_core.rules.kernel.legal import or_pass, second_card_actions, turn_actions
from ttr_core.rules.kernel.rules import Carry
from ttr_core.rules.kernel.tables import action_table, claimable
from ttr_core.rules.kernel.work import Work

_TURN = PendingKind.TURN


_SECOND = PendingKind.SECOND_CARD


_KEEP = PendingKind.KEEP_TICKETS


_START = PendingKind.START_TICKETS


_CORE_KINDS = frozenset(PendingKind)


def legal_actions(state: GameState, seat: int | None = None) -> tuple[Action, ...]:
    """Every action the player to decide may take, exactly.

    Each action listed applies without error; every other action is refused
    by :func:`apply`. Empty once the game is over. ``Pass`` is listed only
    when nothing else is legal (E1). Cached on the (immutable) state.

    ``seat``: only that seat's actions — all of them while it decides, none
    otherwise — what a server may send that seat (the actions of a ticket
    choice name the tickets on offer, which only the choosing seat may see).
    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`
    or ``seat`` is not a seat of its game.
    """
    if type(state) is not GameState:
        check_state(state)  # a subclass passes; anything else is refused
    cached = state._legal_cache
    if cached is None:
        cached = _compute_legal(state)
        object.__setattr__(state, "_legal_cache", cached)
    if seat is not None:
        if type(seat) is not int or not 0 <= seat < len(state.players):
            raise ArgumentError(
                f"seat must be None or a seat from 0 to {len(state.players) - 1}, not {show(seat)}"
            )
        # Every action listed is the deciding seat's (a neutral player's
        # decision included: a seat decides it).
        return cached if cached and cached[0].player == seat else ()
    return cached


def _compute_legal(state: GameState) -> tuple[Action, ...]:
    pending = state.pending
    if pending is None:
        return ()
    rules = state.rules
    kind = pending.kind
    seat = pending.player
    if kind == _TURN:
        acts = _turn_actions(state, seat)
    elif kind == _SECOND:
        acts = _second_card_actions(state, seat)
    elif kind in (_START, _KEEP):
        acts = keep_choices(seat, pending.offered, pending.min_keep)
    else:
        acts = []
    if rules.filter:
        acts, removed = calls.run_filter(rules, state, acts)
        if removed:
            object.__setattr__(state, "_filtered_out", removed)
    if rules.veto:
        acts = [a for a in acts if calls.run_veto(rules, state, a) is None]
    if rules.extra_actions:
        # A new list: after a filter ``acts`` may be the list the plugin returned.
        acts = [*acts, *calls.run_extra_actions(rules, state)]
    if not acts:  # the rule is asked only when it decides something (the hot path)
        acts = or_pass(
            acts, action_table(state.board, len(state.players)), kind, seat, rules.variants
        )
    return tuple(acts)


def _turn_actions(state: GameState, seat: int) -> list[Action]:
    table = action_table(state.board, len(state.players))
    player = state.players[seat]
    return turn_actions(
        table,
        seat,
        player.hand.counts,
        player.cars,
        claimable(
            state.owners, table, len(state.players), seat, state.rules.both_pair_routes_usable
        ),
        state.display,
        bool(state.deck) or any(state.discard),
        bool(state.ticket_deck or state.ticket_discard),
    )


def _second_card_actions(state: GameState, seat: int) -> list[Action]:
    table = action_table(state.board, len(state.players))
    return second_card_actions(
        table, seat, state.display, table.turn_wild, bool(state.deck) or any(state.discard)
    )


def apply(
    state: GameState,
    action: Action,
    *,
    seat: int | None = None,
    expect_ply: int | None = None,
) -> GameState:
    """The state after ``action``. Pure: ``state`` is never changed.

    Raises :class:`IllegalAction` (with a :class:`Reason`) for an action the
    rules do not allow here, a malformed one included (a field of the wrong
    type: ``malformed_action`` for the seat, else the field's own reason), and
    :class:`ArgumentError` if ``state`` is not a :class:`GameState`.

    The seat is checked first: an action in the name of a seat that is not
    to decide is refused (``not_your_turn``) before anything else is looked
    at, so no message can quote that seat's hand or ticket offer.

    For servers, two guards, both checked before anything else:

    - ``seat``: the seat the move came from (the client's authenticated
      seat). An action in another seat's name is refused (``wrong_seat``)
      with a message that depends only on the two seat numbers, so a client
      can never act as, or probe the hidden cards of, the seat to decide.
    - ``expect_ply``: the :attr:`GameState.ply` the client saw when it chose
      the move. On a state at another ply the move is refused with
      :class:`StaleMoveError` (``stale_move``): a retried or outdated move is
      never applied twice.
    """
    if type(state) is not GameState:
        check_state(state)
    if expect_ply is not None:
        if type(expect_ply) is not int:
            raise ArgumentError(f"expect_ply must be an int (or None), not {what(expect_ply)}")
        if expect_ply != state.ply:
            raise StaleMoveError(expect_ply, state.ply)
    if seat is not None:
        _check_seat(state, action, seat)
    pending = state.pending
    if pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no action can be taken")
    if not isinstance(action, Action):
        raise IllegalAction(
            Reason.UNKNOWN_ACTION, f"expected a ttr_core.Action, not {type(action).__name__}"
        )
    try:
        player = action.player
    except AttributeError:  # an Action built without __init__
        player = None
    # Exactly an int: 0.0, False and "0" compare (or hash) like seat 0 but are
    # no seat, and would break the game further on.
    if type(player) is not int:
        raise IllegalAction(
            Reason.MALFORMED_ACTION,
            f"an action's player is a seat number (an int), not {what(player)}",
        )
    if player != pending.player:
        raise IllegalAction(
            Reason.NOT_YOUR_TURN,
            f"it is seat {pending.player}'s decision, not seat {show(player)}'s",
        )
    rules = state.rules
    cache = state._legal_cache
    # One of the core's objects listed for this state (what play applies: one
    # identity scan, in C) passes every check, vetoes included: it was listed
    # for that. The kernel carries it out at once.
    carry = kernel.CARRY.get(type(action))
    if (
        carry is not None
        and cache is not None
        and pending.kind in _CORE_KINDS
        and not rules.extra_actions
        and any(map(operator.is_, cache, itertools.repeat(action)))
    ):
        new = _carried(state, action, carry)
        return new if new.ply == state.ply + 1 else _counted(new, state)
    handler = _HANDLERS.get(type(action))
    if handler is None:
        if rules.apply_action:
            result = calls.run_apply_action(rules, state, action)
            if result is not None:
                return result if result.ply == state.ply + 1 else _counted(result, state)
        raise IllegalAction(Reason.UNKNOWN_ACTION, f"no rule applies {show(action)}")
    if pending.kind not in _CORE_KINDS:
        raise IllegalAction(
            Reason.WRONG_PHASE,
            f"the game waits for a {pending.kind!r} decision, not {show(action)}",
        )
    # An action a filter removed is one the core listed, so refusing it before
    # the core's checks reports the same reason, and runs none of its effects.
    if rules.filter and type(action) is not Pass:
        if state._legal_cache is None:
            legal_actions(state)  # runs the filters, noting what they removed
        removed = state._filtered_out
        # One of the objects listed (what play applies: one identity scan, in C)
        # is none of the removed actions: see _filtered_out_by.
        if removed is not None and not any(
            map(operator.is_, state._legal_cache or (), itertools.repeat(action))
        ):
            variant = _filtered_out_by(state, removed, action)
            if variant is not None:
                raise IllegalAction(
                    Reason.VETOED, f"{show(action)} is not allowed by variant {variant!r}"
                )
    new = handler(state, action)
    # Vetoes are asked only of actions the core allows (so a wrong phase is
    # reported as such); Pass, the action of last resort, is exempt.
    if rules.veto and type(action) is not Pass:
        reason = calls.run_veto(rules, state, action)
        if reason is not None:
            raise IllegalAction(Reason.VETOED, reason)
    # The core's handlers count the action themselves; a hook that built its
    # state from another one may not have.
    return new if new.ply == state.ply + 1 else _counted(new, state)


def _filtered_out_by(state: GameState, removed: FilteredOut, action: Action) -> str | None:
    """The variant whose filter removed ``action`` from ``state``'s legal actions
    (``removed``: see :data:`~ttr_core.hooks.calls.FilteredOut`), or ``None``.

    For an action that is none of the objects listed (``apply`` looks for it
    there first: those are candidates the filters kept, and the core's
    candidates are distinct, so none of them is a removed one). No action is
    hashed: ``action`` is compared with the few removed ones, by identity,
    then by value once its fields are checked (so that the comparison runs
    nothing but the core's own code).
    """
    kind = type(action)
    variant = ""
    checked = False
    for out in removed:
        if type(out) is str:
            variant = out
        elif out is action:
            return variant
        elif type(out) is kind:
            if not checked:
                malformed = _field_error(state, action)
                if malformed is not None:
                    raise malformed
                checked = True
            if out == action:
                return variant
    return None


def _counted(new: GameState, before: GameState) -> GameState:
    """``new`` as the state one action after ``before`` (its ``ply`` set)."""
    return replace_state(new, ply=before.ply + 1)


def _replace_player(
    players: tuple[PlayerState, ...], seat: int, new: PlayerState
) -> tuple[PlayerState, ...]:
    return (*players[:seat], new, *players[seat + 1 :])


def _apply_draw_blind(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    kind = state.pending.kind
    if kind != _TURN and kind != _SECOND:
        raise _wrong_phase(state, action)
    return _carried(state, action)


def _apply_draw_face_up(state: GameState, action: Action) -> GameState:
    assert state.pending is not None and isinstance(action, DrawFaceUp)
    slot = action.slot
    if type(slot) is not int:
        raise _refused_fields(state, action)
    kind = state.pending.kind
    if kind != _TURN and kind != _SECOND:
        raise _wrong_phase(state, action)
    card = face_up_card(state, slot)
    if kind == _SECOND and card == turn_wild(state.board):
        raise IllegalAction(
            Reason.WILD_AS_SECOND_CARD, "a face-up wild cannot be taken as the second card"
        )
    return _carried(state, action)


def _apply_claim(state: GameState, action: Action) -> GameState:
    assert state.pending is not None and isinstance(action, ClaimRoute)
    color = action.color
    if (
        type(action.route) is not int
        or type(action.wilds) is not int
        or (color is not None and type(color) is not str)
    ):
        raise _refused_fields(state, action)
    if state.pending.kind != _TURN:
        raise _wrong_phase(state, action)
    error = _claim_error(state, action)
    if error is not None:
        raise error
    return _carried(state, action)


def claim_payment(state: GameState, action: ClaimRoute) -> tuple[tuple[int, int], ...]:
    """The ``(card index, count)`` pairs a checked ``action`` pays: wilds, and the colour."""
    return kernel.claim_payment(state.board, action)


def claim_for(
    state: GameState, owner: int, route_id: int, paid: Iterable[tuple[int, int]]
) -> GameState:
    """Record ``owner``'s claim of a route and run the after-claim chain; the turn goes on.

    The caller has checked that the claim is allowed. ``paid`` gives ``(card
    index, count)`` pairs; see :func:`ttr_core.rules.kernel.rules.claim_for`.
    """
    work = Work(state)
    kernel.claim_for(work, owner, route_id, paid)
    return work.published(going_on=False)


def ticket_draw(
    state: GameState, count: int, seat: int | None = None
) -> tuple[dict[str, Any], tuple[int, ...]]:
    """Up to ``count`` tickets from the top of the ticket deck, as ``(changes, ids)``.

    An empty ticket deck is first refilled from the shuffled ticket discard
    pile. ``changes`` are the ticket-deck fields of the new state. With a
    ``seat`` (a ``DrawTickets``), the variants' ``ttr_deal_tickets`` may
    choose the tickets instead of the top of the deck.
    """
    work = Work(state)
    drawn = kernel.take_tickets(work, count, seat)
    new = work.published()
    changes = {
        "ticket_deck": new.ticket_deck,
        "ticket_discard": new.ticket_discard,
        "shuffles": new.shuffles,
    }
    return changes, drawn


def ticket_return(state: GameState, returned: tuple[int, ...]) -> dict[str, Any]:
    """The ticket-deck fields once ``returned`` go back as the map says (bottom,
    pile or box)."""
    where = state.board.rules.returned_tickets
    if where == "box":
        return {"boxed_tickets": state.boxed_tickets + tuple(returned)}
    deck, pile = kernel.returned_tickets(state.ticket_deck, state.ticket_discard, returned, where)
    if where == "discard":
        return {"ticket_discard": pile}
    return {"ticket_deck": deck}


def _apply_draw_tickets(state: GameState, action: Action) -> GameState:
    assert state.pending is not None
    if state.pending.kind != _TURN:
        raise _wrong_phase(state, action)
    return _carried(state, action)


def _apply_keep(state: GameState, action: Action) -> GameState:
    pending = state.pending
    assert pending is not None and isinstance(action, KeepTickets)
    chosen = action.tickets
    if type(chosen) is not frozenset:
        raise _refused_fields(state, action)
    for ticket in chosen:  # a loop: cheaper than any() over a generator
        if type(ticket) is not int:
            raise _refused_fields(state, action)
    if pending.kind != _KEEP and pending.kind != _START:
        raise _wrong_phase(state, action)
    stray = sorted(t for t in chosen if t not in pending.offered)
    if stray:
        raise IllegalAction(
            Reason.NOT_OFFERED,
            f"tickets {_some(stray)} were not offered (offered: {list(pending.offered)})",
        )
    if len(chosen) < pending.min_keep:
        raise IllegalAction(
            Reason.TOO_FEW_TICKETS_KEPT,
            f"must keep at least {pending.min_keep} of {len(pending.offered)} tickets, "
            f"not {len(chosen)}",
        )
    return _carried(state, action)


def _apply_pass(state: GameState, action: Action) -> GameState:
    if legal_actions(state) != (action,):
        raise IllegalAction(
            Reason.PASS_NOT_ALLOWED, "pass is allowed only when no other action is legal"
        )
    return _carried(state, action)


def _carried(state: GameState, action: Action, carry: Carry | None = None) -> GameState:
    """The state once the kernel has carried out ``action``, a core action the
    checks allowed (or one listed for ``state``): one way in for every handler
    and for ``apply``'s listed actions. ``carry`` is the action's transition
    (``kernel.rules.CARRY``), when the caller has looked it up already."""
    pending = state.pending
    assert pending is not None
    if carry is None:
        carry = kernel.CARRY[type(action)]
    work = Work(state)
    carry(work, action, pending.kind == _SECOND)
    return work.published(going_on=False)


def _finish_turn(state: GameState) -> GameState:
    """End the current seat's turn: final-round and stalemate bookkeeping, next seat."""
    work = Work(state)
    kernel.finish_turn(work, passed=False)
    return work.published(going_on=False)


_HANDLERS = {
    DrawBlind: _apply_draw_blind,
    DrawFaceUp: _apply_draw_face_up,
    ClaimRoute: _apply_claim,
    DrawTickets: _apply_draw_tickets,
    KeepTickets: _apply_keep,
    Pass: _apply_pass,
}


def end_turn(state: GameState) -> GameState:
    """End the current seat's turn as the core does after any turn action.

    For plugins whose own actions (``ttr_apply_action``) complete a turn: the
    final-round count, the next seat and the between-turns hooks all follow.
    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    check_state(state)
    if state.pending is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no turn can end")
    if state.pending.kind in (_KEEP, _START):
        raise PluginError(
            f"end_turn() with tickets on offer ({state.pending.kind}): the offered "
            "tickets would be lost; let the seat keep them or return them first"
        )
    return _finish_turn(state)


def is_over(state: GameState) -> bool:
    """Whether the game has ended (no player has a decision to make).

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    if type(state) is not GameState:
        check_state(state)
    return state.termination is not None
