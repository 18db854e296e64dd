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
the table", so it is read against a state.

Variant actions get ids after the core's (from ``core_size``) when their
variant declares them (hook ``ttr_action_space``): variant after variant in
the game's variant order, template after template, one id per combination
of field values. The space of a game is then that of its configuration
(board, players, variants, options); the core's ids never change. A variant
action of a variant that declares none has no id: the functions refuse it
with ``PluginError``.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import attrs

from ttr_core.errors import (
    ArgumentError,
    IllegalAction,
    PluginError,
    Reason,
    UnsupportedVariantError,
    show,
    what,
)
from ttr_core.hooks.manager import plugins_generation
from ttr_core.hooks.resolve import game_rules, resolve_variants
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import GRAY, Board, derive, evict_oldest
from ttr_core.model.declarations import ActionTemplate
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import GameState, PendingKind, check_state
from ttr_core.rules.checks import _field_error, check_player_count
from ttr_core.rules.engine import legal_actions
from ttr_core.rules.kernel.tables import ActionTable, action_table

_KEEP_KINDS = (PendingKind.START_TICKETS, PendingKind.KEEP_TICKETS)
_CORE_CLASSES = (Action, DrawBlind, DrawFaceUp, DrawTickets, Pass, ClaimRoute, KeepTickets)

#: The most ids the variants of one configuration may add.
MAX_VARIANT_IDS = 1 << 20
#: Configurations with variant ids kept per board.
_KEPT_VARIANT_SPACES = 64

#: What an id stands for, without the seat: ("blind",), ("face_up", slot),
#: ("tickets",), ("pass",), ("claim", route, colour or None, wilds), and for
#: a variant id ("variant", variant name, action class, field names, values).
_Template = tuple[object, ...]
#: A variant action without its seat: its class and its field values (each
#: with its type, so that ``True`` is not ``1``), in the class's field order.
_VariantKey = tuple[type, tuple[tuple[type, object], ...]]


@attrs.frozen(eq=False)
class ActionSpace:
    """The action ids of one configuration: the core's of (board, player count),
    then those its variants declare; see :mod:`ttr_core.rules.action_ids`."""

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
    #: Number of core ids (``keep_base + 2**keep_bits``); variant ids follow.
    core_size: int = 0
    #: ``(variant, first, stop)``: the ids ``first .. stop-1`` are that variant's.
    variant_ranges: tuple[tuple[str, int, int], ...] = ()
    _variant_templates: tuple[_Template, ...] = attrs.field(repr=False, default=())
    _by_variant: dict[_VariantKey, int] = attrs.field(repr=False, factory=dict)
    # Each declared variant action class -> its fields other than the seat.
    _variant_fields: dict[type, tuple[str, ...]] = attrs.field(repr=False, factory=dict)

    def template(self, action_id: int) -> _Template:
        """What id ``action_id`` (not a ``KeepTickets`` id) stands for."""
        if action_id >= self.core_size:
            return self._variant_templates[action_id - self.core_size]
        return self._templates[action_id]


def action_space(
    board: Board,
    players: int,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
) -> ActionSpace:
    """The action ids of ``board`` with ``players`` seats and the game's
    ``variants`` and ``options`` (as :func:`ttr_core.new_game` takes them;
    ``None``: the map's default variants), built once and kept on the board.

    The core's ids depend only on ``board`` and ``players``; the variants that
    declare actions (hook ``ttr_action_space``) append theirs. Raises
    :class:`ArgumentError` for a ``board`` that is not a :class:`Board`,
    :class:`PlayerCountError` for a player count the map is not played with,
    what ``new_game`` raises for variants or options it refuses, and
    :class:`PluginError` for a declaration that is not well formed.
    """
    if not isinstance(board, Board):
        raise ArgumentError(f"board must be a ttr_core.Board, not {what(board)}")
    check_player_count(board, players)
    rules = game_rules(board, players, resolve_variants(board, variants), options)
    return rules_space(rules)


def rules_space(rules: GameRules) -> ActionSpace:
    """The action space of a resolved game configuration (its core space when
    no variant of it declares actions)."""
    if rules.action_space:
        return _variant_space(rules)
    return _core_space(rules.board, rules.players)


def _core_space(board: Board, players: int) -> ActionSpace:
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
    table = action_table(board, players)
    by_object: dict[int, int] = {}
    for seat in range(players):
        for action in _seat_objects(table, seat):
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
        core_size=len(templates) + 2**keep_bits,
    )


def _seat_objects(table: ActionTable, seat: int) -> list[Action]:
    """Every action object of ``seat`` in the action ``table`` (those with ids)."""
    objects: list[Action] = [table.blind[seat], table.tickets[seat], table.passes[seat]]
    objects += table.face_up[seat]
    objects += table.all_wild[seat]
    for colored in table.colored[seat]:
        if colored is not None:
            objects += [a for row in colored for cell in row for a in cell]
    for gray in table.gray[seat]:
        if gray is not None:
            objects += [a for pay in gray for row in pay for cell in row for a in cell]
    return objects


def _variant_space(rules: GameRules) -> ActionSpace:
    board = rules.board
    # Keyed by the plugins' generation: a variant registered again may declare anew.
    key = ("variant_action_ids", rules.players, rules.variants, rules.options, plugins_generation())
    space: ActionSpace | None = board.derived.get(key)
    if space is None:
        evict = evict_oldest("variant_action_ids", _KEPT_VARIANT_SPACES)
        space = derive(board, key, lambda: _build_variants(rules), evict)
    return space


def _build_variants(rules: GameRules) -> ActionSpace:
    """The core space of ``rules`` with every variant's declared ids appended."""
    core = _core_space(rules.board, rules.players)
    base = core.size
    entries: list[_Template] = []
    by_variant: dict[_VariantKey, int] = {}
    field_names: dict[type, tuple[str, ...]] = {}
    ranges: list[tuple[str, int, int]] = []
    for impl in rules.action_space:
        first = base + len(entries)
        result = impl(rules.board, rules.players, rules)
        for template in _templates_of(impl.variant, result):
            cls = template.action
            names = tuple(name for name, _ in template.fields)
            domains = [values for _, values in template.fields]
            count = math.prod(len(values) for values in domains)
            if len(entries) + count > MAX_VARIANT_IDS:
                raise _declaration_error(
                    impl.variant, f"the variants declare more than {MAX_VARIANT_IDS} action ids"
                )
            order = field_names.setdefault(cls, tuple(sorted(names, key=_field_order(cls))))
            where = [names.index(name) for name in order]
            for values in itertools.product(*domains):
                found = (cls, tuple((type(values[i]), values[i]) for i in where))
                if found in by_variant:
                    raise _declaration_error(
                        impl.variant,
                        f"{cls.__name__} with {dict(zip(names, values, strict=True))!r} is "
                        "declared twice",
                    )
                by_variant[found] = base + len(entries)
                entries.append(("variant", impl.variant, cls, names, values))
        ranges.append((impl.variant, first, base + len(entries)))
    return attrs.evolve(
        core,
        size=base + len(entries),
        variant_ranges=tuple(ranges),
        variant_templates=tuple(entries),
        by_variant=by_variant,
        variant_fields=field_names,
    )


def _field_order(cls: type) -> Any:
    order = {field.name: i for i, field in enumerate(attrs.fields(cls))}
    return order.__getitem__


def _declaration_error(variant: str, message: str) -> PluginError:
    return PluginError(
        f"variant {variant!r}: hook ttr_action_space: {message}",
        variant=variant,
        hook="ttr_action_space",
    )


@attrs.frozen
class _Checked:
    action: type[Action]
    fields: tuple[tuple[str, tuple[object, ...]], ...]


def _templates_of(variant: str, result: object) -> list[_Checked]:
    """``ttr_action_space``'s result, checked: action templates of the variant's own
    action classes, each field of the class (but ``player``) with a finite domain of
    distinct hashable values."""
    if result is None:
        return []
    if not isinstance(result, list | tuple):
        raise _declaration_error(
            variant, f"expected a list of ttr_core.ActionTemplate, not {what(result)}"
        )
    checked: list[_Checked] = []
    for template in result:
        if not isinstance(template, ActionTemplate):
            raise _declaration_error(
                variant, f"expected ttr_core.ActionTemplate items, not {what(template)}"
            )
        cls = template.action
        if (
            not isinstance(cls, type)
            or not issubclass(cls, Action)
            or cls in _CORE_CLASSES
            or not attrs.has(cls)
        ):
            raise _declaration_error(
                variant,
                f"a template's action is an attrs subclass of ttr_core.Action of the "
                f"variant's own, not {what(cls)}",
            )
        fields = template.fields
        if not isinstance(fields, Mapping):
            raise _declaration_error(
                variant, f"{cls.__name__}: fields map field names to values, not {what(fields)}"
            )
        wanted = [f.name for f in attrs.fields(cls) if f.name != "player"]
        given = list(fields)
        if sorted(given, key=str) != sorted(wanted):
            raise _declaration_error(
                variant,
                f"{cls.__name__}: the fields give a domain to each of "
                f"{', '.join(wanted) or 'no field'} (but player), not to "
                f"{', '.join(map(show, given)) or 'none'}",
            )
        domains: list[tuple[str, tuple[object, ...]]] = []
        for name in given:
            values = fields[name]
            if not isinstance(values, list | tuple | range):
                raise _declaration_error(
                    variant,
                    f"{cls.__name__}.{name}: a domain is a list, tuple or range of values, "
                    f"not {what(values)}",
                )
            if len(values) > MAX_VARIANT_IDS:
                raise _declaration_error(
                    variant, f"{cls.__name__}.{name}: more than {MAX_VARIANT_IDS} values"
                )
            try:
                distinct = {(type(v), v) for v in values}
            except TypeError:
                raise _declaration_error(
                    variant, f"{cls.__name__}.{name}: every value must be hashable"
                ) from None
            if len(distinct) != len(values):
                raise _declaration_error(
                    variant, f"{cls.__name__}.{name}: a value is listed twice in its domain"
                )
            domains.append((name, tuple(values)))
        checked.append(_Checked(template.action, tuple(domains)))
    return checked


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


def _variant_id(space: ActionSpace, action: Action) -> int:
    """The id of a variant action (not one of the core's classes)."""
    names = space._variant_fields.get(type(action))
    if names is None:
        declared = ", ".join(v for v, _, _ in space.variant_ranges) or "none"
        raise PluginError(
            f"{type(action).__name__} is a variant action that no variant of the game declares "
            f"in its hook ttr_action_space (variants declaring actions: {declared}), so it "
            "has no action id"
        )
    try:
        key = (type(action), tuple((type(v), v) for v in (getattr(action, n) for n in names)))
        found = space._by_variant.get(key)
    except Exception:  # an unhashable or hostile field value: not an action of the space
        found = None
    if found is None:
        raise IllegalAction(
            Reason.UNKNOWN_ACTION,
            f"{show(action)} has no action id: its fields are outside the values its variant "
            "declares",
        )
    return found


def variant_action_id(space: ActionSpace, action: Action) -> int:
    """The id in ``space`` of ``action``, an action of a variant's own class (its
    seat is not part of it): :class:`PluginError` if no variant of the space
    declares the class, :class:`IllegalAction` for fields outside the values
    its variant declares."""
    return _variant_id(space, action)


def _space(state: GameState) -> ActionSpace:
    if type(state) is not GameState:
        check_state(state)
    rules = state.rules
    if rules.action_space:
        return _variant_space(rules)
    board = state.board
    space: ActionSpace | None = board.derived.get(("action_ids", state.num_players))
    return _core_space(board, state.num_players) if space is None else space


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
    if type(action) not in _CORE_CLASSES:
        return _variant_id(space, action)
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
    if action_id >= space.core_size:
        _, variant, cls, names, values = space.template(action_id)
        assert isinstance(cls, type) and isinstance(names, tuple) and isinstance(values, tuple)
        try:
            made: Action = cls(player=seat, **dict(zip(names, values, strict=True)))
        except Exception as exc:  # the variant's class refused its own declared values
            raise _declaration_error(
                str(variant), f"{cls.__name__} refused declared values: {exc}"
            ) from exc
        return made
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


def core_actions(board: Board, players: int) -> tuple[tuple[Action | None, ...], ...]:
    """For each seat, the core's action of every id of the board's space: the
    shared objects :func:`ttr_core.legal_actions` lists (``None`` at the
    ``KeepTickets`` ids, which are read against an offer). Built once per
    board and player count."""
    key = ("core_actions", players)
    found: tuple[tuple[Action | None, ...], ...] | None = board.derived.get(key)
    if found is None:
        found = derive(board, key, lambda: _core_actions(board, players))
    return found


def _core_actions(board: Board, players: int) -> tuple[tuple[Action | None, ...], ...]:
    space = _core_space(board, players)
    table = action_table(board, players)
    seats = []
    for seat in range(players):
        by_id: list[Action | None] = [None] * space.size
        for action in _seat_objects(table, seat):
            by_id[space._by_object[id(action)]] = action
        seats.append(tuple(by_id))
    return tuple(seats)


def legal_action_ids(state: GameState) -> tuple[int, ...]:
    """The ids of ``legal_actions(state)``, in the same order (fast: no hashing).

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    return ids_of_listed(_space(state), legal_actions(state), lambda: state)


def ids_of_listed(
    space: ActionSpace, legal: Sequence[Action], state: Callable[[], GameState]
) -> tuple[int, ...]:
    """The ids of ``legal``, actions listed for a position of a game whose action
    space is ``space``: the space's own objects by identity (one C-level pass),
    any other (a ticket choice, a variant action) by :func:`action_id` on the
    position, ``state()``, asked for only then (a playout publishes it)."""
    found = tuple(map(space._by_object.get, map(id, legal)))
    if None not in found:
        return found  # type: ignore[return-value]  # no None in it
    position = state()
    return tuple(
        action_id(position, action) if aid is None else aid
        for aid, action in zip(found, legal, strict=True)
    )


def legal_action_mask(state: GameState) -> Sequence[bool]:
    """A list of ``size`` booleans: ``True`` at each legal action's id.

    Raises :class:`ArgumentError` if ``state`` is not a :class:`GameState`.
    """
    mask = [False] * _space(state).size
    for aid in legal_action_ids(state):
        mask[aid] = True
    return mask


def check_all_numbered(rules: GameRules, user: str) -> None:
    """Refuse a game some of whose actions would have no id: one with a variant
    that lists or applies actions of its own (hooks ``ttr_extra_actions`` and
    ``ttr_apply_action``) and declares none (hook ``ttr_action_space``).
    ``user`` names who needs the ids, for the message. The declarations of the
    others are checked at once (their space is built).

    Raises :class:`~ttr_core.errors.UnsupportedVariantError` naming the first
    such variant and the game's other variants, to play without it, and
    :class:`PluginError` for a declaration that is not well formed.
    """
    declared = {impl.variant for impl in rules.action_space}
    own = (*rules.extra_actions, *rules.apply_action)
    refused = [v for v in dict.fromkeys(impl.variant for impl in own) if v not in declared]
    if refused:
        rest = ",".join(v for v in rules.variants if v not in refused) or "none"
        raise UnsupportedVariantError(
            f"variant {refused[0]!r} adds actions of its own, which have no action id: it "
            f"declares none (hook ttr_action_space); {user} plays only games whose actions "
            f"all have ids (without {', '.join(repr(name) for name in refused)}: "
            f"variants={rest})",
            variant=refused[0],
        )
    rules_space(rules)
