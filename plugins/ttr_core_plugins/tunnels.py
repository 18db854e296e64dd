"""Tunnels (Ticket to Ride: Europe): a claim that may cost more cards.

Routes with ``tunnel = true`` (map field of the routes, a ``bool``, written
only on tunnels) are claimed in two steps, through the claim pipeline
(docs/hooks.md):

1. The seat claims the tunnel as any route (``ClaimRoute``: the core checks
   it and lists only payments the hand holds, so a tunnel the seat cannot
   even pay the base cost of is never listed, EU2). Then the top
   :data:`REVEAL` cards of the deck (option ``reveal``) are turned up for
   everyone and laid on the discard pile (``effects.reveal_cards``): the
   discard pile is shuffled in when the deck runs out, and with fewer cards
   in deck and discard pile together only those are revealed; none
   revealed, no extra (EU1). The face-up display is not touched: a revealed
   locomotive never triggers the three-locomotive reset (EU5).
2. Each revealed card of the claim's colour, or a locomotive, asks one more
   card of that colour or a locomotive (:func:`surcharge`). A claim paid
   with locomotives only counts only the revealed locomotives, and each must
   be matched with a locomotive. The game waits for the seat's decision of
   kind :data:`PAY` (data :class:`TunnelWait`, public): pay the extra
   (:class:`PayTunnel`, one action per way the hand can pay it, ``wilds``
   locomotives and the rest in the claim's colour; listed only when the hand
   can pay, EU2) and claim the route, or give up (:class:`GiveUpTunnel`,
   always listed, even when nothing more is asked): the seat keeps every
   card, the route stays free, the turn ends.

Everything about a waiting tunnel is public: each view shows it under
``"tunnels.pay"`` (``None`` when no tunnel waits). Pictures draw tunnels
outlined, as printed (hook ``ttr_route_styles``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    GRAY,
    WILD,
    Action,
    ActionTemplate,
    Board,
    ClaimRoute,
    ClaimsRoute,
    GameRules,
    GameState,
    IllegalAction,
    MoveWords,
    NativeRule,
    PlayerView,
    Reason,
    RouteStyle,
    VariantOption,
    effects,
    hookimpl,
    move_words,
    player_name,
    view_rules,
)

#: The variant name this plugin is registered under.
NAME = "tunnels"
#: The map field (on routes) marking a tunnel.
FIELD = "tunnel"
#: Kind of the claiming seat's decision once the cards are revealed: pay or give up.
PAY = f"{NAME}.pay"
#: View keys repeating a waiting tunnel as numbers (see ttr_player_view).
ASKED = f"{NAME}.asked"
TURNED_UP = f"{NAME}.turned_up"
#: The view key showing a waiting tunnel (or ``None``).
VIEW = PAY
#: Cards turned up by a tunnel claim, by default (option ``reveal``).
REVEAL = 3
#: The card name of the wild card (a locomotive on Europe).
WILD_CARD = WILD
#: For bots: what one extra card of a surcharge is worth, in points.
CARD_COST = 1.0
#: For bots: what a turn lost to a tunnel given up is worth, in points.
TURN_COST = 3.0


@attrs.frozen
class TunnelWait:
    """A tunnel claim waiting for its seat's decision (``Pending.data`` of :data:`PAY`).

    ``claim`` is the claim made, ``revealed`` the card names turned up (in
    order; ``"wild"`` for a locomotive), ``extra`` the cards more it asks
    (:func:`surcharge` of the two).
    """

    claim: ClaimRoute
    revealed: tuple[str, ...]
    extra: int


@attrs.frozen
class PayTunnel(Action):
    """Pay the tunnel's extra cards, ``wilds`` of them locomotives and the rest in
    the claim's colour, and claim it (the turn ends)."""

    wilds: int


@attrs.frozen
class GiveUpTunnel(Action):
    """Give the tunnel up: the seat keeps its cards, the route stays free, the turn ends."""


def is_tunnel(board: Board, route: int) -> bool:
    """Whether route ``route`` of ``board`` is a tunnel."""
    return board.routes[route].extra.get(FIELD) is True


def surcharge(claim: ClaimRoute, revealed: Iterable[str]) -> int:
    """The extra cards ``revealed`` asks of ``claim``: each locomotive, and each card
    of the claim's colour unless the claim is paid with locomotives only."""
    return sum(1 for card in revealed if card == WILD_CARD or card == claim.color)


def waiting(state: GameState) -> TunnelWait | None:
    """The tunnel waiting for its seat's decision in ``state``, if any."""
    pending = state.pending
    if pending is None or pending.kind != PAY or not isinstance(pending.data, TunnelWait):
        return None
    return pending.data


def extra_payment(wait: TunnelWait, wilds: int) -> dict[str, int]:
    """The extra cards of paying ``wait`` with ``wilds`` locomotives (``{name: count}``)."""
    paid = {WILD_CARD: wilds} if wilds else {}
    rest = wait.extra - wilds
    if rest:
        paid[wait.claim.color or WILD_CARD] = paid.get(wait.claim.color or WILD_CARD, 0) + rest
    return paid


def payments(state: GameState, wait: TunnelWait) -> list[int]:
    """The ways the claiming seat's hand can pay ``wait``'s extra cards on top of
    the claim's own, as the locomotives among them (fewest first)."""
    claim = wait.claim
    if effects.claim_error(state, claim) is not None:
        return []
    board = state.board
    hand = state.players[claim.player].hand.counts
    spare_wilds = hand[board.wild] - claim.wilds
    if claim.color is None:
        return [wait.extra] if wait.extra <= spare_wilds else []
    length = board.routes[claim.route].length
    spare_colour = hand[board.card_index(claim.color)] - (length - claim.wilds)
    return [k for k in range(wait.extra + 1) if k <= spare_wilds and wait.extra - k <= spare_colour]


def _reveal(rules: GameRules) -> int:
    value = rules.option(NAME, "reveal")
    assert isinstance(value, int)
    return value


# -- declarations ---------------------------------------------------------------------


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption("reveal", int, REVEAL, "cards turned up by a tunnel claim", low=0, high=10)
    ]


@hookimpl
def ttr_action_types() -> Mapping[str, type[Action]]:
    return {f"{NAME}.pay_extra": PayTunnel, f"{NAME}.give_up": GiveUpTunnel}


@hookimpl
def ttr_action_space(rules: GameRules) -> Sequence[ActionTemplate]:
    """One id per number of locomotives among the extra cards (at most one per card
    revealed), and one for giving up."""
    return [
        ActionTemplate(PayTunnel, {"wilds": range(_reveal(rules) + 1)}),
        ActionTemplate(GiveUpTunnel),
    ]


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {PAY: TunnelWait}


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: the reveal, the
    surcharge and the decision that follows (its actions in the kind's order:
    pay with 0 .. ``reveal`` locomotives, then give up)."""
    reveal = _reveal(rules)
    board = rules.board
    return [
        NativeRule(
            "tunnel",
            count=reveal,
            per_route=tuple(int(is_tunnel(board, route.id)) for route in board.routes),
            decision=PAY,
            record=TunnelWait,
            actions=(*(PayTunnel(0, k) for k in range(reveal + 1)), GiveUpTunnel(0)),
            views=((ASKED, "asked"), (TURNED_UP, "turned_up")),
        )
    ]


@hookimpl
def ttr_view_types(board: Board) -> Mapping[str, Any]:
    return {
        VIEW: TunnelWait | None,
        ASKED: int,
        TURNED_UP: tuple.__class_getitem__((int,) * (len(board.colors) + 1)),
    }


@hookimpl
def ttr_check_game(board: Board) -> str | None:
    if not any(is_tunnel(board, route.id) for route in board.routes):
        return (
            f"tunnels need tunnel routes (the routes field {FIELD!r} set to true), and map "
            f"{board.id!r} has none"
        )
    return None


@hookimpl
def ttr_route_styles(board: Board, rules: GameRules) -> list[RouteStyle]:
    """Pictures: each tunnel outlined, as printed, in place of the field's generic mark."""
    reveal = _reveal(rules)
    cards = "1 card" if reveal == 1 else f"{reveal} cards"
    legend = (
        f"tunnel: outlined; a claim turns up {cards}: each locomotive or card of its "
        "colour asks 1 more"
    )
    return [
        RouteStyle(route.id, outline=True, field=FIELD, legend=legend)
        for route in board.routes
        if is_tunnel(board, route.id)
    ]


# -- the claim pipeline ---------------------------------------------------------------


@hookimpl
def ttr_before_claim(state: GameState, action: ClaimRoute) -> GameState | None:
    """Reveal the cards of a tunnel claim and wait for the seat to pay or give up."""
    if not is_tunnel(state.board, action.route):
        return None
    # The claim's cards are laid down before the reveal: seen by every player.
    state = effects.show_cards(state, action.player, effects.claim_cards(state, action))
    state, revealed = effects.reveal_cards(state, _reveal(state.rules))
    wait = TunnelWait(action, revealed, surcharge(action, revealed))
    return effects.set_pending(state, PAY, action.player, data=wait)


@hookimpl
def ttr_extra_actions(state: GameState) -> Sequence[Action] | None:
    wait = waiting(state)
    if wait is None:
        return None
    seat = wait.claim.player
    found: list[Action] = [PayTunnel(seat, wilds) for wilds in payments(state, wait)]
    found.append(GiveUpTunnel(seat))
    return found


@hookimpl
def ttr_apply_action(state: GameState, action: Action) -> GameState | None:
    if not isinstance(action, PayTunnel | GiveUpTunnel):
        return None
    wait = waiting(state)
    if wait is None:
        raise IllegalAction(Reason.WRONG_PHASE, "no tunnel claim waits for a decision now")
    if isinstance(action, GiveUpTunnel):
        return effects.cancel_claim(state, wait.claim)
    if type(action.wilds) is not int:
        raise IllegalAction(
            Reason.MALFORMED_ACTION, f"wilds must be a whole number, not {type(action.wilds)}"
        )
    if action.wilds not in payments(state, wait):
        raise IllegalAction(
            Reason.CARDS_DO_NOT_PAY,
            f"the hand cannot pay the tunnel's {wait.extra} extra card(s) with that many "
            "locomotives",
        )
    return effects.complete_claim(state, wait.claim, extra_payment(wait, action.wilds))


# -- views -----------------------------------------------------------------------------


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    # The claim's cards are laid down and the revealed ones turned up: all public.
    # ASKED and TURNED_UP repeat the wait as numbers, which observation encoders
    # read (they skip the TunnelWait record): the cards asked, and the cards
    # turned up per card index (the wild last); 0 when no tunnel waits.
    wait = waiting(state)
    board = state.board
    turned_up = [0] * (len(board.colors) + 1)
    if wait is not None:
        for name in wait.revealed:
            turned_up[board.wild if name == WILD_CARD else board.colors.index(name)] += 1
    return {
        VIEW: wait,
        ASKED: 0 if wait is None else wait.extra,
        TURNED_UP: tuple(turned_up),
    }


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState | None:
    """A waiting tunnel's data comes back from the view (it is public)."""
    wait = view.variants.get(VIEW)
    pending = state.pending
    if wait is None or pending is None or pending.kind != PAY:
        return None
    return attrs.evolve(state, pending=attrs.evolve(pending, data=wait))


def _names(board: Board, cards: Iterable[str]) -> str:
    return ", ".join(board.wild_name if card == WILD_CARD else card for card in cards)


def _more(extra: int) -> str:
    return "no more cards" if extra == 0 else f"{extra} more card" + ("" if extra == 1 else "s")


@hookimpl
def ttr_describe_action(state: GameState, action: Action) -> str | None:
    """The reveal and the answer in words: all public, so ``full`` changes nothing."""
    if not isinstance(action, PayTunnel | GiveUpTunnel):
        return None
    wait = waiting(state)
    if wait is None:
        return None
    board = state.board
    route = board.routes[wait.claim.route]
    shown = _names(board, wait.revealed) or "no card"
    head = f"turned up {shown} for the tunnel {route.a}–{route.b}: {_more(wait.extra)}"
    if isinstance(action, GiveUpTunnel):
        return f"{head}; gave up the tunnel"
    paid = extra_payment(wait, action.wilds)
    cards = " + ".join(f"{n} {_names(board, [name])}" for name, n in paid.items())
    if not cards:
        return f"{head}; claimed it with nothing more"
    return f"{head}; paid {wait.extra} more ({cards})"


# -- invariants ------------------------------------------------------------------------


def _view_wait(view: PlayerView) -> TunnelWait | None:
    wait = view.variants.get(VIEW)
    return wait if isinstance(wait, TunnelWait) else None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str] | None:
    """The tunnel waiting: the cards turned up and what they ask, before the
    seat pays or gives up."""
    wait = _view_wait(view)
    if wait is None:
        return None
    board = view.board
    route = board.routes[wait.claim.route]
    who = player_name(wait.claim.player, view.viewer).capitalize()
    verb = "claim" if wait.claim.player == view.viewer else "claims"
    shown = _names(board, wait.revealed) or "no card (the deck is empty)"
    paid = move_words(view, wait.claim).choice  # the claim's cards, as its move said them
    return [
        f"Tunnel: {who} {verb} {route.a}–{route.b} ({route.color} {route.length}) with {paid}; "
        f"turned up: {shown}: {_more(wait.extra)} to pay, or give up"
    ]


@hookimpl
def ttr_move_words(view: PlayerView, action: Action) -> MoveWords | None:
    """Pay the tunnel (which cards) or give it up, with the cards turned up."""
    if not isinstance(action, PayTunnel | GiveUpTunnel):
        return None
    wait = _view_wait(view)
    if wait is None:
        return None
    board = view.board
    route = board.routes[wait.claim.route]
    # The cards turned up are the view's words (ttr_view_words), shown above.
    group = f"Pay for the tunnel {route.a}–{route.b} or give it up"
    if isinstance(action, GiveUpTunnel):
        text = "Give up the tunnel (keep your cards; the route stays free)"
        return MoveWords(text, group, route=route.id, choice="give up", command="g")
    paid = extra_payment(wait, action.wilds)
    cards = " + ".join(f"{n} {_names(board, [name])}" for name, n in paid.items())
    choice = f"pay {cards}" if cards else "claim it, nothing more to pay"
    return MoveWords(
        f"Pay {_more(wait.extra)} ({cards}) and claim {route.a}–{route.b}"
        if cards
        else f"Claim {route.a}–{route.b}: nothing more to pay",
        group,
        route=route.id,
        choice=choice,
        command="pay",
    )


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """A tunnel claim's risk, before it is made."""
    if not isinstance(action, ClaimRoute) or not is_tunnel(view.board, action.route):
        return None
    reveal = view_rules(view).option(NAME, "reveal")
    return [f"tunnel: {reveal} cards turned up may ask for more"]


@hookimpl
def ttr_check_state(state: GameState) -> Iterator[str]:
    pending = state.pending
    if pending is None or pending.kind != PAY:
        return
    wait = pending.data
    if not isinstance(wait, TunnelWait):
        yield f"{PAY}: the decision's data must be a TunnelWait, not {type(wait).__name__}"
        return
    claim = wait.claim
    board = state.board
    if claim.player != pending.player:
        yield f"{PAY}: the claim is seat {claim.player}'s, the decision seat {pending.player}'s"
    if not 0 <= claim.route < len(board.routes) or not is_tunnel(board, claim.route):
        yield f"{PAY}: route {claim.route} is no tunnel of {board.id}"
        return
    if len(wait.revealed) > _reveal(state.rules):
        yield f"{PAY}: {len(wait.revealed)} cards revealed, more than {_reveal(state.rules)}"
    if any(card not in board.card_names for card in wait.revealed):
        yield f"{PAY}: revealed cards {wait.revealed} name a card the map has not"
    if wait.extra != surcharge(claim, wait.revealed):
        yield (
            f"{PAY}: the surcharge asked ({wait.extra}) is not the revealed matches "
            f"({surcharge(claim, wait.revealed)})"
        )
    # The route is free and the cars are there; the cards are not checked: a state
    # dealt from another seat's view (determinize) deals the claiming hand at random.
    if state.owners[claim.route] != -1:
        yield f"{PAY}: the waiting claim's route {claim.route} is claimed already"
    if state.players[claim.player].cars < board.routes[claim.route].length:
        yield f"{PAY}: seat {claim.player} has too few cars left for route {claim.route}"


def _counts(board: Board, cards: Iterable[str]) -> list[int]:
    counts = [0] * len(board.card_names)
    for card in cards:
        counts[board.card_index(card)] += 1
    return counts


@hookimpl
def ttr_check_transition(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """The reveal and the surcharge of a tunnel claim, and what each answer does."""
    board = before.board
    if type(action) is ClaimRoute and is_tunnel(board, action.route):
        yield from _check_reveal(before, action, after)
        return
    wait = waiting(before)
    if wait is None or not isinstance(action, PayTunnel | GiveUpTunnel):
        return
    claim = wait.claim
    seat = claim.player
    old = before.players[seat]
    new = after.players[seat]
    if isinstance(action, GiveUpTunnel):
        if after.owners != before.owners or new.hand != old.hand or new.cars != old.cars:
            yield f"{NAME}: giving up changed an owner, or seat {seat}'s cards or cars"
        if after.turn != before.turn + 1 and after.pending is not None:
            yield f"{NAME}: giving up did not end the turn"
        return
    length = board.routes[claim.route].length
    spent = old.hand.total - new.hand.total
    if after.owners[claim.route] != seat or old.cars - new.cars != length:
        yield f"{NAME}: paying did not give seat {seat} route {claim.route} for {length} cars"
    if spent != length + wait.extra:
        yield (
            f"{NAME}: a completed tunnel paid {spent} cards, not the claim's {length} + the "
            f"surcharge {wait.extra}"
        )
    wild = board.wild
    colour = wild if claim.color is None else board.card_index(claim.color)
    for card, (was, now) in enumerate(zip(old.hand.counts, new.hand.counts, strict=True)):
        if was != now and card not in (wild, colour):
            yield f"{NAME}: a completed tunnel paid {board.card_names[card]} cards"
    if old.hand.counts[wild] - new.hand.counts[wild] < claim.wilds + action.wilds:
        yield f"{NAME}: a completed tunnel paid fewer locomotives than its claim and answer"


def _check_reveal(before: GameState, claim: ClaimRoute, after: GameState) -> Iterator[str]:
    board = before.board
    wait = waiting(after)
    if wait is None:
        yield f"{NAME}: the tunnel claim {claim!r} does not wait for its seat's decision"
        return
    if wait.claim != claim:
        yield f"{NAME}: the waiting claim {wait.claim!r} is not the claim made {claim!r}"
    owed = surcharge(claim, wait.revealed)
    if wait.extra != owed:
        yield (
            f"{NAME}: the surcharge asked ({wait.extra}) does not equal the revealed matches "
            f"({owed} among {', '.join(wait.revealed) or 'none'})"
        )
    available = len(before.deck) + sum(before.discard)
    wanted = min(_reveal(before.rules), available)
    if len(wait.revealed) != wanted:
        yield f"{NAME}: {len(wait.revealed)} cards revealed, not {wanted}"
    # Only what every player knows of the claiming hand may change: the claim's cards.
    kept = [(p.hand, p.cars, p.routes, p.score) for p in after.players]
    if kept != [(p.hand, p.cars, p.routes, p.score) for p in before.players] or (
        after.owners != before.owners
    ):
        yield f"{NAME}: the reveal changed a hand or an owner"
    shown = dict(zip(before.board.card_names, after.players[claim.player].known, strict=False))
    for card, n in effects.claim_cards(before, claim).items():
        if shown.get(card, 0) < n:
            yield f"{NAME}: the claim's {n} {card} card(s) laid down are not known to all"
    # EU5: revealed cards never reach the display (a display over the wild limit that
    # no reset could help may still be reset once the discard pile grows: the core's E3).
    calm = before.display.count(board.wild) <= board.rules.max_face_up_wilds
    if calm and None not in before.display and after.display != before.display:
        yield f"{NAME}: the reveal changed the face-up display (EU5)"
    top = tuple(board.card_names[c] for c in before.deck[: len(wait.revealed)])
    if len(before.deck) >= len(wait.revealed) and top != wait.revealed:
        yield f"{NAME}: revealed {wait.revealed}, but the deck's top was {top}"
    if after.shuffles == before.shuffles and None not in before.display:
        gained = [n - o for n, o in zip(after.discard, before.discard, strict=True)]
        if gained != _counts(board, wait.revealed):
            yield f"{NAME}: the revealed cards did not go to the discard pile"


# -- advice for bots ------------------------------------------------------------------


def match_chance(board: Board) -> float:
    """The chance that one revealed card asks one more card, by the deck's make-up:
    a locomotive, or a card of the claim's colour (the commonest colour)."""
    total = sum(board.deck)
    if not total:
        return 0.0
    return (board.deck[board.wild] + max(board.deck[: board.wild], default=0)) / total


def short_chance(reveal: int, chance: float, spare: int) -> float:
    """The chance that more than ``spare`` of ``reveal`` revealed cards match."""
    return sum(
        math.comb(reveal, k) * chance**k * (1 - chance) ** (reveal - k)
        for k in range(max(spare + 1, 0), reveal + 1)
    )


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """For bots: a tunnel costs the cards its surcharge is expected to ask, and the
    turn lost, times the chance that the surcharge is more than the hand's spare
    cards of the route's colour and locomotives (it must then give up); nothing
    for the tunnel already waiting (its surcharge is known). With no card to
    spare that is over 2 points (``ttr_core.agents.base.RISK``), so the bots, seeing
    that a tunnel's claim waits for their decision, draw a card more before they
    attempt it (until the end is near); with one to spare about 1.1."""
    board = view.board
    reveal = dict(dict(view.options).get(NAME, ())).get("reveal", REVEAL)
    chance = match_chance(board)
    hand = view.hand.counts
    wilds = hand[board.wild]
    best = max(hand[: board.wild], default=0)
    wait = view.variants.get(VIEW)
    costs = []
    for route in board.routes:
        if not is_tunnel(board, route.id) or (
            isinstance(wait, TunnelWait) and wait.claim.route == route.id
        ):
            costs.append(0.0)
            continue
        held = best if route.color == GRAY else hand[board.card_index(route.color)]
        spare = held + wilds - route.length
        costs.append(CARD_COST * reveal * chance + TURN_COST * short_chance(reveal, chance, spare))
    return costs


@hookimpl
def ttr_agent_action_purpose(view: PlayerView, action: Action) -> ClaimsRoute | None:
    """Paying claims the tunnel (the extra cards its cost, the locomotives among
    them its wilds); giving up is no claim (the bots pay when they can)."""
    wait = view.variants.get(VIEW)
    if not isinstance(action, PayTunnel) or not isinstance(wait, TunnelWait):
        return None
    return ClaimsRoute(wait.claim.route, extra_cost=CARD_COST * wait.extra, wilds=action.wilds)
