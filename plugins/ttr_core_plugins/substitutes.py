"""Substitute cards (Nordic Countries): a set of any few cards pays for one card.

Two rules, both map data:

* **Ferries** (routes whose field ``locomotives`` is above 0): any
  ``[variants.substitutes] locomotive`` cards (3 on Nordic Countries, any
  colours, locomotives among them allowed) stand in for **one** of the
  locomotives the ferry requires.
* **A route with the field** ``substitute = N`` (Murmansk–Lieksa, N = 4):
  each card of the colour chosen for it may be replaced by any N cards.

A claim with substitutes is this variant's own action,
:class:`ClaimWithSets` (``route``, ``color`` and ``wilds`` as a
``ClaimRoute``'s — the cards paid outright — and ``sets``, the number of
substitute sets). Listed only for claims the core would allow
(``effects.route_error``: the route free, the double-route rules, the cars)
whose outright cards the hand holds and whose sets the rest of the hand can
make. The seat then gives the sets' cards one at a time (:class:`GiveCard`,
one action per card name it may still give: a decision of kind :data:`PAY`,
so the choice of cards stays exact and small), and the claim is made
(``effects.claim_route``) once the last is given; the turn ends. Everything
about a claim that waits is public: its cards and the cards given are laid
down (``effects.show_cards``: known to every player until paid).

Engine decisions NC3 and NC4: a set may hold locomotives; a set is never used
on a tunnel or an ordinary route, and on a ferry only in place of a required
locomotive. A claim without sets is the core's ``ClaimRoute`` (the
``ferries`` plugin asks its locomotives).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    GRAY,
    WILD,
    Action,
    ActionTemplate,
    Board,
    ClaimsRoute,
    Gains,
    GameState,
    IllegalAction,
    MoveWords,
    PlayerView,
    Reason,
    effects,
    end_turn,
    hookimpl,
    player_name,
)

#: The variant name this plugin is registered under.
NAME = "substitutes"
#: The route field of a ferry's locomotives (the ``ferries`` plugin's).
FERRY = "locomotives"
#: The route field of a route whose colour cards any N cards may replace.
FIELD = "substitute"
#: The route field of a tunnel: never paid with sets (NC4).
TUNNEL = "tunnel"
#: The map's table key: the cards of a set replacing a ferry's locomotive.
LOCOMOTIVE = "locomotive"
#: The decision of a claim that waits for its sets' cards.
PAY = f"{NAME}.pay"
#: Sizes a set may have (a map's number is checked against them).
SIZES = range(2, 11)
#: For bots: what one card more than the card a set replaces costs, in points.
CARD_COST = 0.75


@attrs.frozen
class ClaimWithSets(Action):
    """Claim ``route`` paying ``wilds`` locomotives and the rest of its cards in
    ``color`` (``None`` when no card of a colour is paid), less ``sets`` cards
    each replaced by a set of any cards (given next, one at a time)."""

    route: int
    color: str | None
    wilds: int
    sets: int


@attrs.frozen
class GiveCard(Action):
    """Give card ``card`` (a colour's name, or ``"wild"``) to a set of the claim
    that waits."""

    card: str


@attrs.frozen
class SetsWait:
    """A claim with sets waiting for their cards (``Pending.data`` of :data:`PAY`):
    the claim, the cards still owed and the cards given so far (in order)."""

    claim: ClaimWithSets
    owed: int
    given: tuple[str, ...] = ()


def set_size(board: Board, route: int) -> int:
    """The cards of one set on ``route``: the map's ferry number on a ferry, the
    route's ``substitute`` field on such a route, 0 where no set pays (a tunnel,
    an ordinary route)."""
    extra = board.routes[route].extra
    if extra.get(TUNNEL) is True:
        return 0
    field = extra.get(FIELD)
    if type(field) is int and field > 0:
        return field
    if _locomotives(board, route):
        value = board.variant_data.get(NAME, {}).get(LOCOMOTIVE, 0)
        return value if type(value) is int else 0
    return 0


def _locomotives(board: Board, route: int) -> int:
    value = board.routes[route].extra.get(FERRY)
    return value if type(value) is int and value > 0 else 0


def _outright(board: Board, claim: ClaimWithSets) -> dict[str, int]:
    """The cards ``claim`` pays outright, by name."""
    paid = {WILD: claim.wilds} if claim.wilds else {}
    length = board.routes[claim.route].length
    rest = length - claim.wilds - claim.sets
    if claim.color is not None and rest:
        paid[claim.color] = rest
    return paid


def claims(state: GameState, seat: int) -> list[ClaimWithSets]:
    """Every claim with one set or more ``seat`` may make now (see the module)."""
    board = state.board
    counts = state.players[seat].hand.counts
    found: list[ClaimWithSets] = []
    for route in board.routes:
        size = set_size(board, route.id)
        if not size or effects.route_error(state, route.id, seat) is not None:
            continue
        need = _locomotives(board, route.id)
        for wilds, sets in _shapes(board, route.id, need):
            found += _payable(board, counts, seat, route.id, wilds, sets, size)
    return found


def _shapes(board: Board, route: int, need: int) -> Iterator[tuple[int, int]]:
    """The ``(wilds, sets)`` a claim of ``route`` may pay with: on a ferry, a set
    for each of 1 to ``need`` required locomotives and any locomotives on the
    other spaces; elsewhere any number of sets, and locomotives only where the
    map lets them pay."""
    length = board.routes[route].length
    if need:
        for sets in range(1, need + 1):
            for extra in range(length - need + 1):
                yield need - sets + extra, sets
        return
    wilds_pay = board.wilds_pay(route)
    for sets in range(1, length + 1):
        for wilds in range(length - sets + 1) if wilds_pay else (0,):
            yield wilds, sets


def _payable(
    board: Board,
    counts: Sequence[int],
    seat: int,
    route: int,
    wilds: int,
    sets: int,
    size: int,
) -> Iterator[ClaimWithSets]:
    """The claims of ``route`` with ``wilds`` locomotives and ``sets`` sets the
    hand (``counts``) can pay: its outright cards held, and as many cards left
    as the sets take."""
    if counts[board.wild] < wilds:
        return
    rest = board.routes[route].length - wilds - sets
    left = sum(counts) - wilds - rest
    if left < sets * size:
        return
    if rest == 0:
        yield ClaimWithSets(seat, route, None, wilds, sets)
        return
    colour = board.routes[route].color
    for name in board.colors if colour == GRAY else (colour,):
        if counts[board.colors.index(name)] >= rest:
            yield ClaimWithSets(seat, route, name, wilds, sets)


def waiting(state: GameState) -> SetsWait | None:
    """The claim waiting for its sets' cards in ``state``, if any."""
    pending = state.pending
    if pending is None or pending.kind != PAY or not isinstance(pending.data, SetsWait):
        return None
    return pending.data


def givable(state: GameState, wait: SetsWait) -> list[str]:
    """The card names the seat may still give: held beyond the claim's outright
    cards and the cards given already."""
    board = state.board
    counts = list(state.players[wait.claim.player].hand.counts)
    for name, n in _outright(board, wait.claim).items():
        counts[board.card_index(name)] -= n
    for name in wait.given:
        counts[board.card_index(name)] -= 1
    return [name for name, n in zip(board.card_names, counts, strict=True) if n > 0]


def _paid(board: Board, wait: SetsWait) -> dict[str, int]:
    """Everything the claim pays: its outright cards and the sets' cards."""
    paid = _outright(board, wait.claim)
    for name in wait.given:
        paid[name] = paid.get(name, 0) + 1
    return paid


# -- declarations ---------------------------------------------------------------------


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    table = board.variant_data.get(NAME)
    if table is not None:
        for key in table:
            if key != LOCOMOTIVE:
                yield f"[variants.{NAME}]: unknown key {key!r} (expected: {LOCOMOTIVE})"
        value = table.get(LOCOMOTIVE)
        if value is not None and (type(value) is not int or value not in SIZES):
            yield (
                f"[variants.{NAME}]: {LOCOMOTIVE} must be a whole number from {SIZES.start} "
                f"to {SIZES.stop - 1}, not {value!r}"
            )
    for route in board.routes:
        value = route.extra.get(FIELD)
        if type(value) is int and value not in SIZES:
            yield (
                f"route {route.id} ({route.a}–{route.b}): {FIELD} must be {SIZES.start} to "
                f"{SIZES.stop - 1}, not {value}"
            )


@hookimpl
def ttr_check_game(board: Board) -> str | None:
    if not any(set_size(board, route.id) for route in board.routes):
        return (
            f"substitutes need a ferry and [variants.{NAME}] {LOCOMOTIVE}, or a route with "
            f"the field {FIELD!r}; map {board.id!r} has neither"
        )
    return None


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    return {f"{NAME}.claim": ClaimWithSets, f"{NAME}.give": GiveCard}


@hookimpl
def ttr_action_space(board: Board, players: int) -> Sequence[ActionTemplate]:
    """One id per route that sets may pay, colour (or none), locomotives and sets;
    one per card name given."""
    routes = [route.id for route in board.routes if set_size(board, route.id)]
    longest = max((board.routes[r].length for r in routes), default=1)
    return [
        ActionTemplate(
            ClaimWithSets,
            {
                "route": routes,
                "color": [*board.colors, None],
                "wilds": range(longest + 1),
                "sets": range(1, longest + 1),
            },
        ),
        ActionTemplate(GiveCard, {"card": list(board.card_names)}),
    ]


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {PAY: SetsWait}


@hookimpl
def ttr_view_types() -> Mapping[str, Any]:
    return {PAY: SetsWait | None}


# -- the claim -------------------------------------------------------------------------


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    pending = state.pending
    if pending is None:
        return None
    if pending.kind == "turn":
        return claims(state, pending.player) or None
    wait = waiting(state)
    if wait is None:
        return None
    return [GiveCard(wait.claim.player, name) for name in givable(state, wait)]


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    if isinstance(action, ClaimWithSets):
        pending = state.pending
        if pending is None or pending.kind != "turn":
            raise IllegalAction(Reason.WRONG_PHASE, "a claim with sets is made on a turn")
        if action not in claims(state, action.player):
            raise IllegalAction(
                Reason.CARDS_DO_NOT_PAY,
                f"{action!r} is no claim with sets the rules and the hand allow now",
            )
        size = set_size(state.board, action.route)
        opened = SetsWait(action, action.sets * size)
        # The claim is laid down: its cards are seen (a state dealt from another
        # seat's view deals them to this hand, so that the claim can be paid).
        state = effects.show_cards(state, action.player, _outright(state.board, action))
        return effects.set_pending(state, PAY, action.player, data=opened)
    if not isinstance(action, GiveCard):
        return None
    wait = waiting(state)
    if wait is None:
        raise IllegalAction(Reason.WRONG_PHASE, "no claim waits for the cards of its sets")
    if not isinstance(action.card, str) or action.card not in givable(state, wait):
        raise IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"card {action.card!r} is not one the seat holds beyond the claim's own cards",
        )
    wait = SetsWait(wait.claim, wait.owed - 1, (*wait.given, action.card))
    state = effects.show_cards(state, wait.claim.player, _paid(state.board, wait))
    if wait.owed:
        return effects.set_pending(state, PAY, wait.claim.player, data=wait)
    claimed = effects.claim_route(
        state, wait.claim.route, wait.claim.player, _paid(state.board, wait)
    )
    return end_turn(claimed)


# -- views -----------------------------------------------------------------------------


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    return {PAY: waiting(state)}  # the claim and the cards given are laid down: public


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState | None:
    wait = view.variants.get(PAY)
    pending = state.pending
    if wait is None or pending is None or pending.kind != PAY:
        return None
    return attrs.evolve(state, pending=attrs.evolve(pending, data=wait))


@hookimpl
def ttr_describe_action(state: GameState, action: Action) -> str | None:
    board = state.board
    if isinstance(action, ClaimWithSets):
        route = board.routes[action.route]
        size = set_size(board, action.route)
        sets = f"{action.sets} set" + ("" if action.sets == 1 else "s")
        return f"set out to claim {route.a}–{route.b} with {sets} of {size} cards"
    wait = waiting(state)
    if isinstance(action, GiveCard) and wait is not None:
        name = board.wild_name if action.card == WILD else action.card
        article = "an" if name[:1] in "aeiou" else "a"
        return f"gave {article} {name} card to a set ({wait.owed - 1} more to give)"
    return None


def _card_word(board: Board, card: str) -> str:
    return board.wild_name if card == WILD else card


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """A claim with sets (click the route) and each card given to a set."""
    board = view.board
    if isinstance(action, ClaimWithSets):
        route = board.routes[action.route]
        size = set_size(board, action.route)
        cards = route.length - action.wilds - action.sets
        parts = [f"{cards} {action.color}"] if action.color is not None and cards > 0 else []
        if action.wilds:
            parts.append(f"{action.wilds} {board.wild_name}{'' if action.wilds == 1 else 's'}")
        parts.append(f"{action.sets} set{'' if action.sets == 1 else 's'} of {size} cards")
        paid = " + ".join(parts)
        return MoveWords(
            f"Claim {route.a}–{route.b} ({route.color} {route.length}) with {paid}",
            "Claim a route with sets of cards",
            route=route.id,
            choice=paid,
            command="cs",
        )
    wait = view.variants.get(PAY)
    if isinstance(action, GiveCard) and isinstance(wait, SetsWait):
        name = _card_word(board, action.card)
        return MoveWords(
            f"Give {'an' if name[:1] in 'aeiou' else 'a'} {name} card to the set "
            f"({wait.owed} to give)",
            "Give cards to your sets",
            choice=name,
            command="give",
        )
    return None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str] | None:
    """A claim with sets waiting for its cards."""
    wait = view.variants.get(PAY)
    if not isinstance(wait, SetsWait):
        return None
    board = view.board
    route = board.routes[wait.claim.route]
    who = "You are" if wait.claim.player == view.viewer else f"{player_name(wait.claim.player)} is"
    given = ", ".join(_card_word(board, card) for card in wait.given) or "none yet"
    return [
        f"Sets: {who} claiming {route.a}–{route.b}; {wait.owed} more "
        f"card{'' if wait.owed == 1 else 's'} to give (given: {given})"
    ]


# -- bots ------------------------------------------------------------------------------


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> ClaimsRoute | Gains | None:
    """A claim with sets claims its route, costing the cards its sets take beyond
    those they replace; a card given costs what it is to the seat: a locomotive
    most, then a colour the seat holds little of."""
    if isinstance(action, ClaimWithSets):
        size = set_size(view.board, action.route)
        return ClaimsRoute(
            action.route, extra_cost=CARD_COST * action.sets * (size - 1), wilds=action.wilds
        )
    if isinstance(action, GiveCard):
        if action.card == WILD:
            return Gains(-3.0)
        held = view.hand[action.card]
        return Gains(-1.0 - 1.0 / (1 + held))
    return None


# -- invariants ------------------------------------------------------------------------


@hookimpl
def ttr_check_state(state: GameState) -> Iterator[str]:
    wait = waiting(state)
    if wait is None:
        return
    board = state.board
    claim = wait.claim
    size = set_size(board, claim.route) if 0 <= claim.route < len(board.routes) else 0
    if not size or state.owners[claim.route] != -1:
        yield f"{PAY}: route {claim.route} is no free route sets may pay"
        return
    if wait.owed + len(wait.given) != claim.sets * size:
        yield f"{PAY}: {len(wait.given)} given and {wait.owed} owed for {claim.sets} sets of {size}"
    if wait.owed <= 0:
        yield f"{PAY}: a claim waits with nothing owed"


@hookimpl
def ttr_check_transition(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """The rule across a step, stated once: a claim with sets takes the route only
    when the last card of its sets is given, and then exactly its outright cards
    and the sets' cards leave the hand."""
    if not isinstance(action, GiveCard):
        return
    wait = waiting(before)
    if wait is None or wait.owed != 1:
        return
    claim = wait.claim
    if after.owners[claim.route] != claim.player:
        yield f"{NAME}: the last card given did not claim route {claim.route}"
        return
    board = before.board
    paid = _paid(board, SetsWait(claim, 0, (*wait.given, action.card)))
    hand_before = before.players[claim.player].hand
    hand_after = after.players[claim.player].hand
    for name in board.card_names:
        if hand_before[name] - hand_after[name] != paid.get(name, 0):
            yield (
                f"{NAME}: the claim of route {claim.route} took "
                f"{hand_before[name] - hand_after[name]} {name}, not {paid.get(name, 0)}"
            )
