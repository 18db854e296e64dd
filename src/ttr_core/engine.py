"""The rules engine: set up a game, list legal actions, apply an action.

Pure functions over frozen states. Chance comes only from the seed carried
in the state: every shuffle uses a generator seeded by ``(seed, number of
shuffles so far)``, so ``(map, players, variants, seed, actions)`` reproduce a
game exactly.
"""

from __future__ import annotations

import itertools
import operator
import os
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from ttr_core.errors import (
    ArgumentError,
    IllegalAction,
    PlayerCountError,
    PluginError,
    Reason,
    StaleMoveError,
    show,
    what,
)
from ttr_core.hooks import calls
from ttr_core.hooks.calls import FilteredOut
from ttr_core.hooks.resolve import game_rules, resolve_variants
from ttr_core.kernel import rules as kernel
from ttr_core.kernel.legal import or_pass, second_card_actions, turn_actions
from ttr_core.kernel.rules import Carry
from ttr_core.kernel.tables import action_table, claimable
from ttr_core.kernel.work import Work, shuffler
from ttr_core.mapfiles.decks import board_with_tickets
from ttr_core.mapfiles.finding import load_map
from ttr_core.mapfiles.registry import named_map
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
from ttr_core.model.board import GRAY, Board
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    check_state,
    replace_state,
)

#: Seeds are whole numbers from 0 to ``SEED_LIMIT - 1`` (256 bits); ``new_game``
#: draws a fresh 128-bit one from the operating system when none is given.
SEED_LIMIT = 2**256

_TURN = PendingKind.TURN
_SECOND = PendingKind.SECOND_CARD
_KEEP = PendingKind.KEEP_TICKETS
_START = PendingKind.START_TICKETS
_CORE_KINDS = frozenset(PendingKind)


# ---------------------------------------------------------------------------
# Preallocated actions: legal_actions hands out shared objects, no allocation
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# Setup

# ---------------------------------------------------------------------------


def new_game(
    map: str | os.PathLike[str] | Board,
    players: int,
    seed: int | None = None,
    variants: Iterable[str] | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    tickets: str | os.PathLike[str] | None = None,
    *,
    files: bool = True,
) -> GameState:
    """Set up a new game.

    ``map`` is a built-in map name, a map file path or a loaded :class:`Board`.
    ``files=False`` is for a map name from outside (a server's client): the
    name must be one :func:`~ttr_core.named_map` knows (a registered, built-in
    or installed map), and no file is ever opened for it, whatever it is
    (:class:`UnknownMapError` otherwise; a path-like ``map`` or a ``tickets``
    file is then an :class:`ArgumentError`).
    ``seed`` is the source of all chance: a whole number from 0 to ``2**256 -
    1``. Without one (``None``) a fresh 128-bit seed is drawn from the
    operating system (:mod:`secrets`), so that nobody can guess the deck
    order; it is kept in ``state.seed``, which a server keeps secret. Give a
    seed to replay a game (tests, research). ``variants`` names the variants to
    switch on; ``None`` means the map's defaults and ``[]`` none at all.
    ``options`` gives variant options as ``{variant: {option: value}}`` (see
    :func:`variant_options`); options not given take their defaults.
    ``tickets`` is the path of a ticket deck file to play instead of the
    map's tickets (see ``docs/map-format.md``). The state returned waits for
    the first seat's starting ticket choice (engine decision E7).

    Raises :class:`UnknownMapError`, :class:`MapError`,
    :class:`UnknownVariantError`, :class:`PlayerCountError`,
    :class:`OptionError`, :class:`PluginError` (a variant that is installed
    but broken), or :class:`ArgumentError` for an argument of the wrong type
    (a seed that is not a whole number in range, a map that is not a name,
    a path or a board).
    """
    if seed is None:
        seed = secrets.randbits(128)
    elif type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        if type(seed) is int:
            raise ArgumentError(
                f"seed must be a whole number from 0 to 2**256 - 1, not {show(seed)}"
            )
        raise ArgumentError(f"seed must be an int (or None for a fresh one), not {what(seed)}")
    if not isinstance(map, str | os.PathLike | Board):
        raise ArgumentError(
            f"map must be a map name, the path of a map file or a Board, not {what(map)}"
        )
    if tickets is not None and not isinstance(tickets, str | os.PathLike):
        raise ArgumentError(
            f"tickets must be the path of a ticket deck file (or None), not {what(tickets)}"
        )
    if type(files) is not bool:
        raise ArgumentError(f"files must be True or False, not {what(files)}")
    if isinstance(map, Board):
        board = map
    elif files:
        board = load_map(map)
    else:
        if not isinstance(map, str) or tickets is not None:
            raise ArgumentError(
                "with files=False, map is the name of a map (a str) and tickets is None: "
                "no file is opened"
            )
        board = named_map(map)
    if tickets is not None:
        board = board_with_tickets(board, tickets)
    check_player_count(board, players)
    rules = game_rules(board, players, resolve_variants(board, variants), options)
    mr = board.rules

    cards = [card for card, n in enumerate(board.deck) for _ in range(n)]
    shuffler(seed, 0).shuffle(cards)
    hands = [[0] * len(board.deck) for _ in range(players)]
    for _ in range(mr.starting_hand):
        for hand in hands:
            hand[cards.pop(0)] += 1
    display = tuple(cards[: mr.display_size])
    deck = tuple(cards[mr.display_size :])

    ticket_ids = list(range(len(board.tickets)))
    shuffler(seed, 1).shuffle(ticket_ids)
    offers = []
    for _ in range(players):
        offers.append(tuple(ticket_ids[: mr.start_tickets_dealt]))
        del ticket_ids[: mr.start_tickets_dealt]

    names = board.card_names
    start_scores = mr.start_scores
    state = GameState(
        board=board,
        rules=rules,
        seed=seed,
        players=tuple(
            PlayerState(
                hand=Hand(tuple(hands[p]), names),
                tickets=(),
                cars=mr.cars_per_player,
                routes=(),
                score=start_scores[p] if p < len(start_scores) else 0,
            )
            for p in range(players)
        ),
        deck=deck,
        display=display,
        discard=(0,) * len(board.deck),
        ticket_deck=tuple(ticket_ids),
        ticket_discard=(),
        owners=(UNCLAIMED,) * len(board.routes),
        pending=Pending(_START, 0, offers[0], min(mr.start_tickets_keep, len(offers[0]))),
        start_offers=tuple(offers[1:]),
        shuffles=2,  # the cards' and the tickets' shuffles
    )
    if display.count(board.wild) > mr.max_face_up_wilds:
        work = Work(state)
        work.check_wilds()  # the starting display too (E3)
        state = work.publish()
    if rules.deal_tickets:
        state = _hook_deal(state)
    if rules.setup:
        state = calls.run_setup(rules, state)
    return state


def _hook_deal(state: GameState) -> GameState:
    """The starting deal redone seat by seat through ``ttr_deal_tickets``, from the
    same shuffled tickets (a seat the hook leaves to the core gets the top ones)."""
    assert state.pending is not None
    count = state.board.rules.start_tickets_dealt
    pool = [*state.pending.offered, *(t for o in state.start_offers for t in o)]
    deck = (*pool, *state.ticket_deck)
    offers = []
    for seat in range(state.num_players):
        asked = replace_state(state, ticket_deck=deck)
        chosen = calls.run_deal_tickets(state.rules, asked, seat, count, True)
        if chosen is None:
            chosen = deck[:count]
        taken = set(chosen)
        deck = tuple(t for t in deck if t not in taken)
        offers.append(chosen)
    pending = Pending(_START, 0, offers[0], state.pending.min_keep)
    return replace_state(state, ticket_deck=deck, pending=pending, start_offers=tuple(offers[1:]))


# ---------------------------------------------------------------------------
# Legal actions
# ---------------------------------------------------------------------------


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
    return second_card_actions(
        action_table(state.board, len(state.players)),
        seat,
        state.display,
        state.board.wild,
        bool(state.deck) or any(state.discard),
    )


# ---------------------------------------------------------------------------
# Apply
# ---------------------------------------------------------------------------


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


def check_player_count(board: Board, players: object) -> int:
    """``players`` checked for a game on ``board``: :class:`ArgumentError` for
    anything but an ``int`` (a ``bool`` included), :class:`PlayerCountError`
    for a count the map is not played with."""
    if type(players) is not int:
        raise ArgumentError(f"players must be a whole number (an int), not {what(players)}")
    low, high = board.rules.min_players, board.rules.max_players
    if not low <= players <= high:
        raise PlayerCountError(board.id, players, low, high)
    return players


def _check_seat(state: GameState, action: object, seat: object) -> None:
    """``apply``'s ``seat`` guard: ``ArgumentError`` for a seat that is no seat of
    the game, ``IllegalAction(wrong_seat)`` for an action in another seat's name.
    Nothing but the two seat numbers is looked at (nothing hidden)."""
    if type(seat) is not int or not 0 <= seat < len(state.players):
        raise ArgumentError(
            f"seat must be a seat from 0 to {len(state.players) - 1}, not {show(seat)}"
        )
    player = getattr(action, "player", None) if isinstance(action, Action) else None
    if player != seat or type(player) is not int:
        raise IllegalAction(
            Reason.WRONG_SEAT,
            f"seat {seat} may only act in its own name, not as {_named_seat(player)}",
        )


def _named_seat(player: object) -> str:
    if type(player) is int:
        return f"seat {show(player)}"
    return "an action without a seat" if player is None else f"seat {show(player, 20)}"


def _wrong_phase(state: GameState, action: Action) -> IllegalAction:
    assert state.pending is not None
    return IllegalAction(
        Reason.WRONG_PHASE,
        f"{type(action).__name__} is not allowed now: the game waits for "
        f"{state.pending.kind.replace('_', ' ')}",
    )


def _field_error(state: GameState, action: Action) -> IllegalAction | None:
    """Why a core action's fields (other than its seat) have the wrong types, or
    ``None``: each field must be exactly of its declared type (an ``int`` is not
    a bool or a float), so that no field of a refused action is ever used as an
    index, hashed or compared. The reason is the field's own (``bad_slot``,
    ``unknown_route``, ``bad_payment``, ``ticket_not_offered``)."""
    kind = type(action)
    if kind is DrawFaceUp:
        assert isinstance(action, DrawFaceUp)
        if type(action.slot) is not int:
            return IllegalAction(
                Reason.BAD_SLOT, f"a face-up slot is an int, not {what(action.slot)}"
            )
    elif kind is ClaimRoute:
        assert isinstance(action, ClaimRoute)
        if type(action.route) is not int:
            return IllegalAction(
                Reason.UNKNOWN_ROUTE, f"a route is an int (its id), not {what(action.route)}"
            )
        if type(action.wilds) is not int:
            return IllegalAction(
                Reason.BAD_PAYMENT, f"wilds is an int (a count), not {what(action.wilds)}"
            )
        color = action.color
        if color is not None and type(color) is not str:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"color is a card colour name (a str) or None, not {what(color)}",
            )
    elif kind is KeepTickets:
        assert isinstance(action, KeepTickets)
        chosen = action.tickets
        if type(chosen) is not frozenset:
            return IllegalAction(
                Reason.MALFORMED_ACTION,
                f"KeepTickets.tickets is a frozenset of ticket ids, not {what(chosen)}",
            )
        stray = [t for t in chosen if type(t) is not int]
        if stray:
            return IllegalAction(
                Reason.NOT_OFFERED,
                f"tickets are ids (ints): {_some(stray)} cannot have been offered",
            )
    return None


def _refused_fields(state: GameState, action: Action) -> IllegalAction:
    """The error of an action whose field types a handler found wrong."""
    error = _field_error(state, action)
    assert error is not None
    return error


def _some(values: Iterable[object], most: int = 5) -> str:
    """Up to ``most`` values for a message (``...`` if there are more)."""
    shown = [show(v) for v in itertools.islice(values, most + 1)]
    if len(shown) > most:
        return f"{', '.join(shown[:most])} ..."
    return ", ".join(shown)


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
    if kind == _SECOND and card == state.board.wild:
        raise IllegalAction(
            Reason.WILD_AS_SECOND_CARD, "a face-up wild cannot be taken as the second card"
        )
    return _carried(state, action)


def face_up_card(state: GameState, slot: object) -> int:
    """The card in face-up ``slot`` (``IllegalAction`` for no such slot, or an empty one)."""
    if type(slot) is not int or not 0 <= slot < len(state.display):
        raise IllegalAction(
            Reason.BAD_SLOT,
            f"slot {show(slot)} does not exist: slots are 0 to {len(state.display) - 1}",
        )
    card = state.display[slot]
    if card is None:
        raise IllegalAction(Reason.EMPTY_SLOT, f"face-up slot {slot} is empty")
    return card


def _who(state: GameState, owner: int) -> str:
    return f"seat {owner}" if state.is_seat(owner) else f"owner {owner} (not a seat)"


def route_claim_error(state: GameState, rid: object, owner: int) -> IllegalAction | None:
    """Why ``owner`` may not claim route ``rid`` whatever it pays, or ``None``.

    The route must exist and be free; an owner never holds both routes of a
    pair, and a pair's second route is closed when the game uses one route of
    a pair; a seat must have the cars.
    """
    board = state.board
    if type(rid) is not int or not 0 <= rid < len(board.routes):
        return IllegalAction(Reason.UNKNOWN_ROUTE, f"there is no route {show(rid)} on {board.id}")
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    if state.owners[rid] != UNCLAIMED:
        return IllegalAction(
            Reason.ROUTE_CLAIMED,
            f"{desc} is already claimed by {_who(state, state.owners[rid])}",
        )
    if route.partner is not None:
        partner_owner = state.owners[route.partner]
        if partner_owner == owner:
            return IllegalAction(
                Reason.OWNS_PARALLEL_ROUTE,
                f"{_who(state, owner)} owns route {route.partner}, the parallel route of {desc}",
            )
        if partner_owner != UNCLAIMED and not state.rules.both_pair_routes_usable:
            return IllegalAction(
                Reason.PARALLEL_ROUTE_CLOSED,
                f"{desc} is closed: its parallel route {route.partner} is claimed and with "
                f"{state.num_players} players only one route of a pair is used",
            )
    if 0 <= owner < len(state.players) and state.players[owner].cars < route.length:
        return IllegalAction(
            Reason.NOT_ENOUGH_CARS,
            f"{desc} needs {route.length} cars; seat {owner} has {state.players[owner].cars}",
        )
    return None


def _claim_error(state: GameState, action: ClaimRoute) -> IllegalAction | None:
    """Why ``action`` may not be applied, or ``None`` if it may."""
    seat = action.player
    error = route_claim_error(state, action.route, seat)
    if error is not None:
        return error
    board = state.board
    rid = action.route
    route = board.routes[rid]
    desc = f"route {rid} ({route.a}–{route.b}, {route.color} {route.length})"
    player = state.players[seat]
    wilds = action.wilds
    if type(wilds) is not int or not 0 <= wilds <= route.length:
        return IllegalAction(
            Reason.BAD_PAYMENT, f"wilds must be 0 to {route.length}, not {show(wilds)}"
        )
    color = action.color
    counts = player.hand.counts
    if wilds == route.length:
        if color is not None:
            return IllegalAction(
                Reason.BAD_PAYMENT, "a payment with wilds alone names no colour (color=None)"
            )
    else:
        if type(color) is not str or color not in board.colors:
            return IllegalAction(
                Reason.BAD_PAYMENT,
                f"colour {show(color)} is not a card colour "
                f"(expected one of {', '.join(board.colors)})",
            )
        if route.color != GRAY and color != route.color:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY, f"{desc} must be paid in {route.color}, not {color}"
            )
        need = route.length - wilds
        have = counts[board.colors.index(color)]
        if have < need:
            return IllegalAction(
                Reason.CARDS_DO_NOT_PAY,
                f"paying {desc} needs {need} {color} cards; seat {seat} has {have}",
            )
    if counts[board.wild] < wilds:
        return IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"paying {desc} needs {wilds} wilds; seat {seat} has {counts[board.wild]}",
        )
    return None


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
    index, count)`` pairs; see :func:`ttr_core.kernel.rules.claim_for`.
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
    """The ticket-deck fields once ``returned`` go back as the map says (bottom or pile)."""
    where = state.board.rules.returned_tickets
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
