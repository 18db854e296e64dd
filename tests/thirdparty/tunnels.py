"""Tunnel-like claims (variant ``tp_tunnels``), through the claim pipeline.

A claim of a route marked ``tunnel = true`` in the map waits
(``ttr_before_claim``): the top three cards of the deck are turned up for
everyone (``effects.reveal_cards``, then discarded), and each that is a wild
or of the claim's colour (only wilds, for a claim paid with wilds alone) asks
one card more. The seat then pays the surcharge (:class:`PayTunnel`: the
claim is completed with ``effects.complete_claim``) or gives the tunnel up
(:class:`GiveUpTunnel`: ``effects.cancel_claim``, cards and cars kept, the
turn over). The rule is stated once, in :func:`matches`, and shipped as the
plugin's own transition invariant.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    WILD,
    Action,
    ActionTemplate,
    Board,
    ClaimRoute,
    ClaimsRoute,
    GameState,
    IllegalAction,
    PlayerView,
    effects,
    hookimpl,
)

NAME = "tp_tunnels"
#: Cards turned up by a tunnel claim.
REVEALED = 3
#: What the bots are told a tunnel's risk costs, in points (path search).
TUNNEL_RISK = 0.5


@attrs.frozen
class PayTunnel(Action):
    """Pay the surcharge: ``wilds`` wild cards, the rest in the claim's colour."""

    wilds: int


@attrs.frozen
class GiveUpTunnel(Action):
    """Give the tunnel up: nothing claimed or paid, the turn ends."""


@attrs.frozen
class Waiting:
    """A tunnel claim that waits: the claim, the cards turned up, the surcharge."""

    claim: ClaimRoute
    revealed: tuple[str, ...]
    extra: int


def is_tunnel(board: Board, route: int) -> bool:
    """Whether the map marks ``route`` as a tunnel."""
    return bool(board.routes[route].extra.get("tunnel"))


def matches(claim: ClaimRoute, revealed: Sequence[str]) -> int:
    """The surcharge, the rule stated once: the revealed wilds and cards of the
    claim's colour (only wilds for a claim paid with wilds alone)."""
    wanted = {WILD} if claim.color is None else {WILD, claim.color}
    return sum(name in wanted for name in revealed)


def extra_paid(claim: ClaimRoute, extra: int, wilds: int) -> dict[str, int]:
    """The surcharge's cards: ``wilds`` wilds, the rest in the claim's colour."""
    colour = claim.color or WILD
    paid = {WILD: wilds}
    paid[colour] = paid.get(colour, 0) + extra - wilds
    return {name: n for name, n in paid.items() if n}


def _holds(state: GameState, claim: ClaimRoute, extra: Mapping[str, int]) -> bool:
    """Whether the claiming seat holds the claim's cards and ``extra`` besides."""
    hand = state.players[claim.player].hand
    need = dict(extra)
    need[WILD] = need.get(WILD, 0) + claim.wilds
    if claim.color is not None:
        length = state.board.routes[claim.route].length
        need[claim.color] = need.get(claim.color, 0) + length - claim.wilds
    return all(hand[name] >= n for name, n in need.items())


class Tunnels:
    """Tunnels: a claim reveals three cards and may cost more (see the module)."""

    description = "tunnels: a claim of a marked route reveals 3 cards and may cost more"

    def __init__(
        self,
        name: str = NAME,
        surcharge: Callable[[ClaimRoute, Sequence[str]], int] = matches,
    ) -> None:
        #: ``surcharge`` is the effect's rule; the shipped invariant always
        #: checks :func:`matches` (a test passes a wrong one to see it caught).
        self.name = name
        self.wait = f"{name}.pay"
        self.view_key = f"{name}.wait"
        self.surcharge = surcharge

    def waiting(self, state: GameState) -> Waiting | None:
        pending = state.pending
        if pending is None or pending.kind != self.wait:
            return None
        data: Waiting = pending.data
        return data

    # -- declarations ---------------------------------------------------------

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {f"{self.name}.pay": PayTunnel, f"{self.name}.give_up": GiveUpTunnel}

    @hookimpl
    def ttr_action_space(self) -> Sequence[ActionTemplate]:
        return [
            ActionTemplate(PayTunnel, {"wilds": range(REVEALED + 1)}),
            ActionTemplate(GiveUpTunnel, {}),
        ]

    @hookimpl
    def ttr_variant_state_types(self) -> Mapping[str, Any]:
        return {self.wait: Waiting}

    @hookimpl
    def ttr_view_types(self) -> Mapping[str, Any]:
        return {self.view_key: Waiting | None}

    # -- the claim pipeline ---------------------------------------------------

    @hookimpl
    def ttr_before_claim(self, state: GameState, action: ClaimRoute) -> GameState | None:
        if not is_tunnel(state.board, action.route):
            return None
        # The claim's cards are laid down: seen by all (and dealt to this hand
        # in a state determinized from another seat's view).
        state = effects.show_cards(state, action.player, effects.claim_cards(state, action))
        state, revealed = effects.reveal_cards(state, REVEALED)
        extra = self.surcharge(action, revealed)
        return effects.set_pending(
            state, self.wait, action.player, data=Waiting(action, revealed, extra)
        )

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        wait = self.waiting(state)
        if wait is None:
            return None
        claim = wait.claim
        seat = claim.player
        if wait.extra == 0:
            return [PayTunnel(seat, 0)]  # nothing more to pay: the claim goes through
        found: list[Action] = [GiveUpTunnel(seat)]
        if effects.claim_error(state, claim) is None:
            # Paid with wilds alone, the surcharge is wilds alone.
            choices = [wait.extra] if claim.color is None else range(wait.extra + 1)
            for wilds in choices:
                if _holds(state, claim, extra_paid(claim, wait.extra, wilds)):
                    found.append(PayTunnel(seat, wilds))
        return found

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if not isinstance(action, PayTunnel | GiveUpTunnel):
            return None
        wait = self.waiting(state)
        if wait is None:
            raise IllegalAction(f"{self.name}.no_claim", "no tunnel claim waits for an answer")
        if action not in (self.ttr_extra_actions(state) or ()):
            raise IllegalAction(
                f"{self.name}.cannot_pay", f"{action!r} does not answer a surcharge of {wait.extra}"
            )
        if isinstance(action, GiveUpTunnel):
            return effects.cancel_claim(state, wait.claim)
        return effects.complete_claim(
            state, wait.claim, extra_paid(wait.claim, wait.extra, action.wilds)
        )

    # -- views ----------------------------------------------------------------

    @hookimpl
    def ttr_player_view(self, state: GameState) -> Mapping[str, Any]:
        return {self.view_key: self.waiting(state)}  # the claim and the cards are public

    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState | None:
        """A waiting tunnel claim gets its data back from the view (all public)."""
        pending = state.pending
        if pending is None or pending.kind != self.wait:
            return None
        return attrs.evolve(state, pending=attrs.evolve(pending, data=view.variants[self.view_key]))

    # -- bots -----------------------------------------------------------------

    @hookimpl
    def ttr_agent_route_costs(self, view: PlayerView) -> Sequence[float]:
        board = view.board
        return [TUNNEL_RISK if is_tunnel(board, r.id) else 0.0 for r in board.routes]

    @hookimpl
    def ttr_agent_action_purpose(self, view: PlayerView, action: Action) -> ClaimsRoute | None:
        wait = view.variants.get(self.view_key)
        if not isinstance(action, PayTunnel) or not isinstance(wait, Waiting):
            return None  # giving up is the bots' fallback: taken when nothing else is legal
        return ClaimsRoute(
            wait.claim.route, extra_cost=0.5 * wait.extra, wilds=wait.claim.wilds + action.wilds
        )

    # -- words ----------------------------------------------------------------

    @hookimpl
    def ttr_describe_action(self, state: GameState, action: Action) -> str | None:
        wait = self.waiting(state)
        if not isinstance(action, PayTunnel | GiveUpTunnel) or wait is None:
            return None
        route = state.board.routes[wait.claim.route]
        where = f"the tunnel {route.a}–{route.b}"
        shown = ", ".join(wait.revealed) or "no card"
        if isinstance(action, GiveUpTunnel):
            return f"gave up {where} (revealed: {shown})"
        return (
            f"paid {wait.extra} more card(s), {action.wilds} of them wild, and claimed {where} "
            f"(revealed: {shown})"
        )

    # -- invariants -----------------------------------------------------------

    @hookimpl
    def ttr_check_state(self, state: GameState) -> Iterator[str]:
        wait = self.waiting(state)
        if wait is None:
            return
        claim = wait.claim
        if not isinstance(wait, Waiting) or not isinstance(claim, ClaimRoute):
            yield f"{self.wait}: the waiting claim's data is {wait!r}"
            return
        assert state.pending is not None
        if state.pending.player != claim.player:
            yield f"{self.wait}: seat {state.pending.player} answers seat {claim.player}'s claim"
        if not is_tunnel(state.board, claim.route) or state.owners[claim.route] != -1:
            yield f"{self.wait}: route {claim.route} is no free tunnel"
        if not 0 <= wait.extra <= len(wait.revealed) <= REVEALED:
            yield f"{self.wait}: a surcharge of {wait.extra} for {len(wait.revealed)} cards"

    @hookimpl
    def ttr_check_transition(
        self, before: GameState, action: Action, after: GameState
    ) -> Iterator[str]:
        """The tunnel's rule across a step: a tunnel claim waits with the deck's top
        cards turned up and a surcharge of their matches, changing no hand and no
        owner; paying takes the route and exactly its length plus the matches in
        cards from the hand; giving up changes no hand and no owner."""
        board = before.board
        if type(action) is ClaimRoute and is_tunnel(board, action.route):
            wait = self.waiting(after)
            if wait is None or wait.claim != action:
                yield f"{self.name}: the tunnel claim {action!r} does not wait"
                return
            top = tuple(board.card_names[c] for c in before.deck[:REVEALED])
            if len(top) == REVEALED and wait.revealed != top:
                yield f"{self.name}: revealed {wait.revealed}, the deck's top was {top}"
            owed = matches(action, wait.revealed)
            if wait.extra != owed:
                yield (
                    f"{self.name}: surcharge {wait.extra} for {action!r}, the revealed cards "
                    f"{wait.revealed} make it {owed}"
                )
            hands = [(p.hand, p.cars, p.routes) for p in after.players]
            if hands != [(p.hand, p.cars, p.routes) for p in before.players] or (
                after.owners != before.owners
            ):
                yield f"{self.name}: a waiting tunnel claim changed a hand or an owner"
            return
        wait = self.waiting(before)
        if wait is None or not isinstance(action, PayTunnel | GiveUpTunnel):
            return
        seat, route = wait.claim.player, wait.claim.route
        spent = before.players[seat].hand.total - after.players[seat].hand.total
        if isinstance(action, GiveUpTunnel):
            if spent or after.owners != before.owners:
                yield f"{self.name}: giving up spent {spent} card(s) or changed an owner"
            return
        owed = board.routes[route].length + matches(wait.claim, wait.revealed)
        if after.owners[route] != seat or spent != owed:
            yield (
                f"{self.name}: paying for tunnel {route} spent {spent} card(s), the route and "
                f"the revealed cards make it {owed} (owner now {after.owners[route]})"
            )
