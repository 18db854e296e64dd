"""Merchandise cards (Ticket to Ride: Amsterdam).

Some routes show cart symbols (map field ``merchandise``, on routes). A seat
that claims such a route draws **one** card from the merchandise deck —
only one, whatever the route's length — as long as the deck holds any; an
empty deck gives nothing and the claim is still legal (engine decision
E13). A route claimed by an owner that is not a seat (claimed through
``ttr_core.effects.claim_route``) draws nothing.

The cards are kept face up: every player's view shows every seat's count
and the number of cards left in the deck. The deck starts with
:data:`CARDS` cards, and cards are conserved: ``deck + sum(held) ==
cards``.

End of game: players holding at least one card are ranked by how many they
hold and score :data:`MERCHANDISE_POINTS` for their rank and the player
count. Tied players share the rank's points and the ranks they fill are
skipped; a player with no card takes no rank and scores nothing (E16, with
:func:`ttr_core.rank_bonus`). The variant is played by 2 to 4 players.

Option (``new_game(..., options={"merchandise": {...}})``): ``cards``, the
number of cards in the merchandise deck.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    Action,
    ClaimRoute,
    GameRules,
    GameState,
    MapField,
    NativeRule,
    PlayerView,
    PluginError,
    ScoreLine,
    VariantOption,
    hookimpl,
    player_name,
    rank_bonus,
)

#: The variant name this plugin is registered under.
NAME = "merchandise"
#: Merchandise cards in the deck at the start, by default.
CARDS = 16
#: Points by rank (1st, 2nd, ...), for each player count.
MERCHANDISE_POINTS: Mapping[int, tuple[int, ...]] = {
    2: (8, 4),
    3: (8, 5, 2),
    4: (8, 6, 4, 2),
}


@attrs.frozen
class MerchandiseState:
    """The variant's state, stored under the key ``"merchandise"``.

    ``held`` is each seat's number of merchandise cards, ``deck`` the number
    left to draw; ``deck + sum(held)`` is always the ``cards`` option.
    """

    held: tuple[int, ...]
    deck: int


def merchandise(state: GameState) -> MerchandiseState:
    """The merchandise state of a game played with this variant."""
    value = state.variant(NAME)
    if not isinstance(value, MerchandiseState):
        raise PluginError(f"the game has no {NAME!r} state: is the variant switched on?")
    return value


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {NAME: MerchandiseState}


@hookimpl
def ttr_view_types(players: int) -> Mapping[str, Any]:
    # Every seat's count, one entry per seat, and the deck's.
    return {f"{NAME}.held": tuple.__class_getitem__((int,) * players), f"{NAME}.deck": int}


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption(
            "cards", int, CARDS, "merchandise cards in the deck at the start of the game", low=0
        )
    ]


@hookimpl
def ttr_map_fields() -> Sequence[MapField]:
    return [
        MapField(
            table="routes",
            name="merchandise",
            type=bool,
            default=False,
            doc="the route shows cart symbols: claiming it draws a merchandise card (Amsterdam)",
            needed=True,  # without cart symbols nobody ever draws a card
        )
    ]


@hookimpl
def ttr_check_game(players: int) -> str | None:
    if players not in MERCHANDISE_POINTS:
        low, high = min(MERCHANDISE_POINTS), max(MERCHANDISE_POINTS)
        return f"merchandise is played by {low} to {high} players, not {players}"
    return None


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    players = state.num_players
    cards = state.rules.option(NAME, "cards")
    return state.with_variant(NAME, MerchandiseState((0,) * players, cards))


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: a card per claim of
    a route with cart symbols while the deck lasts, and the ranked bonus."""
    board = rules.board
    return [
        NativeRule(
            "claim_tokens",
            count=rules.option(NAME, "cards"),
            per_route=tuple(int(bool(r.extra.get("merchandise", False))) for r in board.routes),
            ranks=MERCHANDISE_POINTS[rules.players],
            key=NAME,
            record=MerchandiseState,
            views=((f"{NAME}.held", "held"), (f"{NAME}.deck", "supply")),
        )
    ]


@hookimpl
def ttr_after_claim(state: GameState, player: int, route: int) -> GameState | None:
    if not state.board.routes[route].extra.get("merchandise", False):
        return None
    if not state.is_seat(player):
        return None  # only a seat of the game draws
    current = merchandise(state)
    if current.deck == 0:
        return None  # E13: nothing to draw; the claim stands
    held = list(current.held)
    held[player] += 1
    return state.with_variant(NAME, MerchandiseState(tuple(held), current.deck - 1))


def _label(held: int, rank: int | None) -> str:
    if rank is None:
        return "Merchandise: none"
    cards = "card" if held == 1 else "cards"
    return f"Merchandise: {held} {cards}, rank {rank}"


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    held = merchandise(state).held
    table = MERCHANDISE_POINTS[state.num_players]
    ranks = rank_bonus(held, table, [n > 0 for n in held])
    return [
        [ScoreLine(NAME, _label(held[seat], rank), points)]
        for seat, (rank, points) in enumerate(ranks)
    ]


@hookimpl
def ttr_player_view(state: GameState) -> Mapping[str, Any]:
    current = merchandise(state)
    return {"merchandise.held": current.held, "merchandise.deck": current.deck}  # public


@hookimpl
def ttr_describe_effects(state: GameState, after: GameState) -> list[str] | None:
    """A merchandise card drawn (they are kept face up: public)."""
    old, new = merchandise(state).held, merchandise(after).held
    drawn = [seat for seat in range(len(old)) if new[seat] > old[seat]]
    return [f"drew a merchandise card ({new[seat]} now)" for seat in drawn] or None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """Every seat's merchandise cards and the deck's."""
    held = view.variants[f"{NAME}.held"]
    told = ", ".join(f"{player_name(seat, view.viewer)} {n}" for seat, n in enumerate(held))
    return [f"Merchandise cards: {told}; {view.variants[f'{NAME}.deck']} left in the deck"]


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """A claim of a route with the cart symbol draws a merchandise card."""
    if not isinstance(action, ClaimRoute) or not view.board.routes[action.route].extra.get(NAME):
        return None
    if not view.variants[f"{NAME}.deck"]:
        return ["merchandise route (the merchandise deck is empty)"]
    return ["merchandise route: you draw a merchandise card"]


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView) -> GameState:
    """The merchandise state is public: rebuild it from the view."""
    shown = view.variants
    held = tuple(shown[f"{NAME}.held"])
    return state.with_variant(NAME, MerchandiseState(held, shown[f"{NAME}.deck"]))


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    current = state.variant(NAME)
    if not isinstance(current, MerchandiseState):
        return [f"{NAME}: the variant's state is missing"]
    cards = state.rules.option(NAME, "cards")
    problems = []
    if len(current.held) != state.num_players:
        problems.append(
            f"{NAME}.held: held has {len(current.held)} entries for {state.num_players} seats"
        )
    if current.deck < 0 or any(n < 0 for n in current.held):
        problems.append(f"{NAME}: card counts cannot be negative")
    if current.deck + sum(current.held) != cards:
        problems.append(f"{NAME}: cards are not conserved (deck + held must be {cards})")
    return problems


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """Advice for bots (docs/bots.md): a route with cart
    symbols earns a merchandise card while the deck holds any, a small gain
    (-0.3) that leads their paths over such routes."""
    deck = view.variants[f"{NAME}.deck"]
    return [
        -0.3 if deck and route.extra.get("merchandise", False) else 0.0
        for route in view.board.routes
    ]
