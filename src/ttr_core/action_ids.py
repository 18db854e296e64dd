"""A fixed integer id for every core action of a game configuration, and back.

Search and learning libraries work with action ids and masks rather than
objects. The id space depends only on the board and the player count, never
on the seed or the state, and leaves the seat out (the seat is always the one
deciding, as in OpenSpiel):

========================  ==============================================
ids                       actions
========================  ==============================================
``0``                     ``DrawBlind``
``1 .. S``                ``DrawFaceUp`` of slot ``0 .. S-1``
``S+1``                   ``DrawTickets``
``S+2``                   ``Pass``
then, route by route      every ``ClaimRoute`` payment: for each colour
                          that can pay it (its own, or all for a gray
                          route) ``wilds = 0 .. length-1``, then wilds
                          alone
then ``2**K`` ids         ``KeepTickets``, by which positions of the
                          offer are kept (bit ``i``: the ``i``-th ticket
                          of ``state.pending.offered``); ``K`` is the
                          largest offer the map makes
========================  ==============================================

A ``KeepTickets`` id therefore means "keep these positions of the offer on
the table", so it is read against a state. Variant actions (classes the core
does not know) have no id: the functions refuse them with ``PluginError``.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from .actions import Action, ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass
from .board import GRAY, Board, derive
from .engine import (
    _action_table,
    _field_error,
    check_state,
    legal_actions,
    what,
)
from .errors import (
    ArgumentError,
    IllegalAction,
    PlayerCountError,
    PluginError,
    Reason,
    UnsupportedVariantError,
    printable,
    show,
)
from .plugin_manager import GameRules
from .state import GameState, PendingKind

_KEEP_KINDS = (PendingKind.START_TICKETS, PendingKind.KEEP_TICKETS)

#: What an id stands for, without the seat: ("blind",), ("face_up", slot),
#: ("tickets",), ("pass",), ("claim", route, colour or None, wilds).
_Template = tuple[object, ...]


@attrs.frozen(eq=False)
class ActionSpace:
    """The action ids of one (board, player count); see :mod:`ttr_core.action_ids`."""

    board: Board = attrs.field(repr=False)
    players: int
    #: Number of ids: every id is ``0 <= id < size``.
    size: int
    #: Id of the first ``KeepTickets`` id; the ``2**keep_bits`` after it are keeps.
    keep_base: int
    keep_bits: int
    _templates: tuple[_Template, ...] = attrs.field(repr=False)
    _by_template: dict[_Template, int] = attrs.field(repr=False)
    # id(preallocated action object) -> its id: the engine hands out shared
    # objects, so listing legal ids needs no hashing of actions.
    _by_object: dict[int, int] = attrs.field(repr=False)

    def template(self, action_id: int) -> _Template:
        """What id ``action_id`` (not a ``KeepTickets`` id) stands for."""
        return self._templates[action_id]


def action_space(board: Board, players: int) -> ActionSpace:
    """The action ids of ``board`` with ``players`` seats (built once, kept on the board).

    Raises :class:`ArgumentError` for a ``board`` that is not a :class:`Board`
    and :class:`PlayerCountError` for a player count the map is not played with.
    """
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {what(board)}")
    low, high = board.rules.min_players, board.rules.max_players
    if type(players) is not int or not low <= players <= high:
        raise PlayerCountError(board.id, printable(players), low, high)
    key = ("action_ids", players)
    space: ActionSpace | None = board.derived.get(key)
    if space is None:
        space = derive(board, key, lambda: _build(board, players))
    return space


def _build(board: Board, players: int) -> ActionSpace:
    templates: list[_Template] = [("blind",)]
    templates += [("face_up", slot) for slot in range(board.rules.display_size)]
    templates += [("tickets",), ("pass",)]
    for route in board.routes:
        colours = board.colors if route.color == GRAY else (route.color,)
        for colour in colours:
            templates += [("claim", route.id, colour, w) for w in range(route.length)]
        templates.append(("claim", route.id, None, route.length))
    keep_bits = max(board.rules.start_tickets_dealt, board.rules.draw_tickets)
    by_template = {t: i for i, t in enumerate(templates)}
    table = _action_table(board, players)
    by_object: dict[int, int] = {}
    for seat in range(players):
        objects: list[Action] = [table.blind[seat], table.tickets[seat], table.passes[seat]]
        objects += table.face_up[seat]
        objects += table.all_wild[seat]
        for colored in table.colored[seat]:
            if colored is not None:
                objects += [a for row in colored for cell in row for a in cell]
        for gray in table.gray[seat]:
            if gray is not None:
                objects += [a for pay in gray for row in pay for cell in row for a in cell]
        for action in objects:
            by_object[id(action)] = by_template[_template(action)]
    return ActionSpace(
        board=board,
        players=players,
        size=len(templates) + 2**keep_bits,
        keep_base=len(templates),
        keep_bits=keep_bits,
        templates=tuple(templates),
        by_template=by_template,
        by_object=by_object,
    )


def _template(action: Action) -> _Template:
    kind = type(action)
    if kind is DrawBlind:
        return ("blind",)
    if kind is DrawFaceUp:
        assert isinstance(action, DrawFaceUp)
        return ("face_up", action.slot)
    if kind is DrawTickets:
        return ("tickets",)
    if kind is Pass:
        return ("pass",)
    if kind is ClaimRoute:
        assert isinstance(action, ClaimRoute)
        return ("claim", action.route, action.color, action.wilds)
    raise PluginError(
        f"{type(action).__name__} is a variant action: only core actions have action ids"
    )


def _space(state: GameState) -> ActionSpace:
    if type(state) is not GameState:
        check_state(state)
    board = state.board
    space: ActionSpace | None = board.derived.get(("action_ids", state.num_players))
    return action_space(board, state.num_players) if space is None else space


def _offer(state: GameState) -> tuple[int, ...]:
    pending = state.pending
    if pending is None or pending.kind not in _KEEP_KINDS:
        raise IllegalAction(
            Reason.WRONG_PHASE, "a KeepTickets id is read against tickets on offer; none are"
        )
    return pending.offered


def action_id(state: GameState, action: Action) -> int:
    """The id of ``action`` in ``state``'s configuration (its seat is not part of it).

    A ``KeepTickets`` id names positions of the offer pending in ``state``.
    Raises :class:`IllegalAction` for an action that has no id here (a route
    or slot the map does not have, tickets not on offer), for something that
    is not an action and for a malformed one (fields of the wrong types, as
    :func:`apply` refuses them), :class:`PluginError` for a variant action
    and :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    space = _space(state)
    # The engine's own action objects (what legal_actions lists) are well formed.
    found = space._by_object.get(id(action))
    if found is not None:
        return found
    if not isinstance(action, Action):
        raise IllegalAction(
            Reason.UNKNOWN_ACTION, f"expected a ttr_core.Action, not {what(action)}"
        )
    player = getattr(action, "player", None)
    if type(player) is not int:
        raise IllegalAction(
            Reason.MALFORMED_ACTION,
            f"an action's player is a seat number (an int), not {what(player)}",
        )
    malformed = _field_error(state, action)
    if malformed is not None:
        raise malformed
    if type(action) is KeepTickets:
        offer = _offer(state)
        mask = 0
        for ticket in action.tickets:
            if ticket not in offer:
                raise IllegalAction(Reason.NOT_OFFERED, f"ticket {show(ticket)} is not on offer")
            mask |= 1 << offer.index(ticket)
        return space.keep_base + mask
    aid = space._by_template.get(_template(action))
    if aid is None:
        raise IllegalAction(Reason.UNKNOWN_ACTION, f"{show(action)} has no action id on this map")
    return aid


def action_from_id(state: GameState, action_id: int) -> Action:
    """The action id ``action_id`` stands for, taken by the seat deciding in ``state``.

    Raises :class:`IllegalAction` for an id out of range (or not a whole
    number: an ``int``, not a bool), a finished game, or a ``KeepTickets`` id
    naming positions the offer does not have; :class:`ArgumentError` if
    ``state`` is not a :class:`GameState`. The action need not be legal: check with
    :func:`legal_action_ids` or let ``apply`` refuse it.
    """
    space = _space(state)
    if type(action_id) is not int:
        raise IllegalAction(Reason.UNKNOWN_ACTION, f"an action id is an int, not {what(action_id)}")
    if not 0 <= action_id < space.size:
        raise IllegalAction(
            Reason.UNKNOWN_ACTION, f"action id {show(action_id)} is not in 0..{space.size - 1}"
        )
    seat = state.current_player
    if seat is None:
        raise IllegalAction(Reason.GAME_OVER, "the game is over: no seat takes an action")
    if action_id >= space.keep_base:
        offer = _offer(state)
        mask = action_id - space.keep_base
        if mask >> len(offer):
            raise IllegalAction(
                Reason.NOT_OFFERED, f"action id {action_id} keeps tickets beyond the offer"
            )
        return KeepTickets(seat, [t for i, t in enumerate(offer) if mask >> i & 1])
    template = space.template(action_id)
    kind = template[0]
    if kind == "blind":
        return DrawBlind(seat)
    if kind == "face_up":
        return DrawFaceUp(seat, template[1])  # type: ignore[arg-type]
    if kind == "tickets":
        return DrawTickets(seat)
    if kind == "pass":
        return Pass(seat)
    _, route, colour, wilds = template
    return ClaimRoute(seat, route, colour, wilds)  # type: ignore[arg-type]


def legal_action_ids(state: GameState) -> tuple[int, ...]:
    """The ids of ``legal_actions(state)``, in the same order (fast: no hashing).

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    legal = legal_actions(state)
    by_object = _space(state)._by_object
    ids: list[int] = []
    for action in legal:
        found = by_object.get(id(action))
        ids.append(found if found is not None else action_id(state, action))
    return tuple(ids)


def legal_action_mask(state: GameState) -> Sequence[bool]:
    """A list of ``size`` booleans: ``True`` at each legal action's id.

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    mask = [False] * _space(state).size
    for aid in legal_action_ids(state):
        mask[aid] = True
    return mask


def check_all_numbered(rules: GameRules, user: str) -> None:
    """Refuse a game some of whose actions would have no id: one whose variants
    list or apply actions of their own (hooks ``ttr_extra_actions`` and
    ``ttr_apply_action``). ``user`` names who needs the ids, for the message.

    Raises :class:`~ttr_core.errors.UnsupportedVariantError` naming the first
    such variant and the game's other variants, to play without it.
    """
    own = (*rules.extra_actions, *rules.apply_action)
    refused = list(dict.fromkeys(impl.variant for impl in own))
    if refused:
        rest = ",".join(v for v in rules.variants if v not in refused) or "none"
        raise UnsupportedVariantError(
            f"variant {refused[0]!r} adds actions of its own, which have no action id: "
            f"{user} plays only games whose actions all have ids (without "
            f"{', '.join(repr(name) for name in refused)}: variants={rest})",
            variant=refused[0],
        )
