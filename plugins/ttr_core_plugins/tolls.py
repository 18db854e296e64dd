"""Bridge tolls and loans (Ticket to Ride: Nederland).

Every route has a toll (map field ``toll``). Each player starts with toll
tokens worth :data:`START_VALUE`; only the value matters, since change is
free (engine decision E12: the bank is unlimited and always makes change).

* Both routes of every double pair may be claimed, at any player count (one
  player still never owns both).
* The first route of a pair, or a single route: its toll goes to the bank.
* The second route of a pair: its toll goes to the owner of the first.
* A player who cannot pay the whole toll pays nothing and takes one Loan; on
  a second route the bank then pays the owner. A loan is never a choice.
* A route claimed by an owner that is not a seat (a neutral player, claimed
  through ``ttr_core.effects.claim_route``) pays nothing itself; if it is the
  second route of a pair whose first a seat owns, the bank pays that seat.
* End of game: players without a loan are ranked by the value they hold and
  score the toll bonus of :data:`TOLL_BONUS` (ties share the rank and skip
  the places they fill, E16); each loan costs :data:`LOAN_PENALTY` points.

Options (``new_game(..., options={"tolls": {...}})``): ``start_value``, the
toll value each player starts with, and ``loan_penalty``, points per loan.

Holdings are secret: a player's view shows their own value and every
player's loans (which are public).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    Action,
    Board,
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
    view_rules,
)

#: The variant name this plugin is registered under.
NAME = "tolls"
#: Toll value each player starts with by default: 2 × 4, 6 × 2 and 10 × 1.
START_VALUE = 2 * 4 + 6 * 2 + 10 * 1
#: Points each Loan card costs at the end, by default.
LOAN_PENALTY = 5
#: Toll bonus by rank, for each player count.
TOLL_BONUS: Mapping[int, tuple[int, ...]] = {
    2: (35, 0),
    3: (55, 35, 0),
    4: (55, 35, 20, 0),
    5: (55, 35, 20, 10, 0),
}


@attrs.frozen
class TollState:
    """The variant's state, stored under the key ``"tolls"``.

    ``holdings`` and ``loans`` are per seat. ``bank_received`` is all value
    players paid to the bank, ``bank_paid`` all value the bank paid to owners
    (for second routes claimed on a loan or by a non-seat owner), so that
    value is conserved: ``sum(holdings) + bank_received - bank_paid ==
    start_value * players``.
    """

    holdings: tuple[int, ...]
    loans: tuple[int, ...]
    bank_received: int = 0
    bank_paid: int = 0


def tolls(state: GameState) -> TollState:
    """The toll state of a game played with this variant."""
    value = state.variant(NAME)
    if not isinstance(value, TollState):
        raise PluginError(f"the game has no {NAME!r} state: is the variant switched on?")
    return value


@hookimpl
def ttr_variant_state_types() -> Mapping[str, Any]:
    return {NAME: TollState}


@hookimpl
def ttr_view_types(players: int) -> Mapping[str, Any]:
    # A seat sees its own value and every seat's loans: one entry per seat.
    return {f"{NAME}.holdings": int, f"{NAME}.loans": tuple.__class_getitem__((int,) * players)}


@hookimpl
def ttr_options() -> Sequence[VariantOption]:
    return [
        VariantOption(
            "start_value",
            int,
            START_VALUE,
            "toll value each player starts with (the rulebook's 2×4 + 6×2 + 10×1)",
            low=0,
            high=10_000,
        ),
        VariantOption("loan_penalty", int, LOAN_PENALTY, "points each loan costs", low=0),
    ]


@hookimpl
def ttr_map_fields() -> Sequence[MapField]:
    return [
        MapField(
            table="routes",
            name="toll",
            type=int,
            default=0,
            doc="the bridge toll printed beside the route (Nederland)",
            needed=True,  # tolls on a map without a toll would change nothing but the bonus
        )
    ]


@hookimpl
def ttr_validate_map(board: Board) -> Iterable[str]:
    problems = []
    for route in board.routes:
        toll = route.extra.get("toll", 0)
        if toll < 0:
            problems.append(f"route {route.id}: toll must be 0 or more, not {toll}")
        partner = route.partner
        if partner is not None and route.id < partner:
            other = board.routes[partner].extra.get("toll", 0)
            if other != toll:
                problems.append(
                    f"routes {route.id} and {partner} are a pair but have tolls {toll} and {other}"
                )
    return problems


@hookimpl
def ttr_both_pair_routes_usable(board: Board, players: int) -> bool:
    return True


@hookimpl
def ttr_check_game(players: int) -> str | None:
    if players not in TOLL_BONUS:
        return f"tolls are played by {min(TOLL_BONUS)} to {max(TOLL_BONUS)} players, not {players}"
    return None


@hookimpl
def ttr_setup(state: GameState) -> GameState:
    players = state.num_players
    start = state.rules.option(NAME, "start_value")
    return state.with_variant(NAME, TollState((start,) * players, (0,) * players))


def _replace(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    return (*values[:seat], value, *values[seat + 1 :])


@hookimpl
def ttr_native_rules(rules: GameRules) -> list[NativeRule]:
    """All this variant does, in the compiled engine's terms: each route's toll,
    paid or a loan taken, and the ranked bonus and loans at the end. (Both
    routes of a pair usable is a rule of the game the engine reads itself; a
    game with the neutral player stays on the Python kernel.)"""
    return [
        NativeRule(
            "route_tolls",
            points=rules.option(NAME, "loan_penalty"),
            count=rules.option(NAME, "start_value"),
            per_route=tuple(r.extra.get("toll", 0) for r in rules.board.routes),
            ranks=TOLL_BONUS[rules.players],
            key=NAME,
            record=TollState,
            views=((f"{NAME}.holdings", "money"), (f"{NAME}.loans", "loans")),
        )
    ]


@hookimpl
def ttr_after_claim(state: GameState, player: int, route: int) -> GameState:
    board_route = state.board.routes[route]
    toll = board_route.extra.get("toll", 0)
    if not toll:
        return state
    current = tolls(state)
    payee = None
    if board_route.partner is not None:
        owner = state.owner(board_route.partner)
        # Only a seat of the game is paid; any other owner (a neutral player,
        # E11) means the toll goes to the bank.
        if owner is not None and owner != player and state.is_seat(owner):
            payee = owner
    holdings = current.holdings
    if not state.is_seat(player):
        # A non-seat owner pays nothing; on a second route the bank pays the seat.
        if payee is None:
            return state
        holdings = _replace(holdings, payee, holdings[payee] + toll)
        new = attrs.evolve(current, holdings=holdings, bank_paid=current.bank_paid + toll)
    elif holdings[player] >= toll:
        holdings = _replace(holdings, player, holdings[player] - toll)
        received = current.bank_received
        if payee is None:
            received += toll
        else:
            holdings = _replace(holdings, payee, holdings[payee] + toll)
        new = attrs.evolve(current, holdings=holdings, bank_received=received)
    else:
        # Cannot pay in full: one Loan, no partial payment; the bank pays the owner.
        loans = _replace(current.loans, player, current.loans[player] + 1)
        paid = current.bank_paid
        if payee is not None:
            holdings = _replace(holdings, payee, holdings[payee] + toll)
            paid += toll
        new = attrs.evolve(current, holdings=holdings, loans=loans, bank_paid=paid)
    return state.with_variant(NAME, new)


@hookimpl
def ttr_score_lines(state: GameState) -> Sequence[Sequence[ScoreLine]]:
    current = tolls(state)
    table = TOLL_BONUS[state.num_players]
    penalty_per_loan = state.rules.option(NAME, "loan_penalty")
    ranks = rank_bonus(current.holdings, table, [loans == 0 for loans in current.loans])
    sheets = []
    for seat, (rank, points) in enumerate(ranks):
        held = current.holdings[seat]
        loans = current.loans[seat]
        if rank is None:
            bonus = ScoreLine(
                "toll_bonus", f"Toll bonus: none, {loans} loan(s) taken", 0, shown="end"
            )
        else:
            # Ranked by every seat's secret holdings: no seat sees it before the end.
            bonus = ScoreLine(
                "toll_bonus", f"Toll bonus: rank {rank} with {held} in tolls", points, shown="end"
            )
        penalty = ScoreLine(
            "loans", f"Loans: {loans} × −{penalty_per_loan}", -penalty_per_loan * loans
        )
        sheets.append([bonus, penalty])
    return sheets


@hookimpl
def ttr_player_view(state: GameState, player: int) -> Mapping[str, Any]:
    current = tolls(state)
    return {"tolls.holdings": current.holdings[player], "tolls.loans": current.loans}


@hookimpl
def ttr_describe_effects(
    state: GameState, action: Action, after: GameState, full: bool
) -> list[str] | None:
    """The toll of the route the action claimed — the acting seat's, or the one
    it chose for the neutral player — and to whom, or the loan taken: told from
    public facts only (the route's toll, its pair's owner, the loans), never
    from the secret holdings: another seat (``full`` false) is told the toll
    owed, the claimer whether it paid or took a loan. A route claimed by chance
    after the action (the neutral player's own turn, from a hidden ticket) is
    not this action's."""
    told: list[str] = []
    board = state.board
    for route, (was, now_owner) in enumerate(zip(state.owners, after.owners, strict=True)):
        toll = board.routes[route].extra.get("toll", 0)
        if was == now_owner or not toll:
            continue  # only a route claimed by this action pays
        now = after.owner(route)
        if now is None or state.owner(route) is not None:
            continue
        if now != action.player and route != getattr(action, "route", None):
            continue
        partner = board.routes[route].partner
        owner = None if partner is None else after.owner(partner)
        payee = owner if owner is not None and owner != now and state.is_seat(owner) else None
        to = "the bank" if payee is None else f"Seat {payee}"
        if not state.is_seat(now):
            if payee is not None:
                told.append(f"the bank paid Seat {payee} the toll of {toll}")
        elif not full:
            # Whether the claimer could pay turns on its secret holdings: another
            # seat learns the loan from the public loans of its view, not here.
            told.append(f"owed a toll of {toll} to {to}")
        elif tolls(after).loans[now] > tolls(state).loans[now]:
            paid = "" if payee is None else f"; the bank paid {to}"
            told.append(f"could not pay the toll of {toll}: took a loan{paid}")
        else:
            told.append(f"paid a toll of {toll} to {to}")
    return told or None


@hookimpl
def ttr_view_words(view: PlayerView) -> list[str]:
    """The viewer's own toll money and every seat's loans (the others' money is secret)."""
    held = view.variants[f"{NAME}.holdings"]
    loans = view.variants[f"{NAME}.loans"]
    told = ", ".join(
        f"{player_name(seat, view.viewer)} {count}" for seat, count in enumerate(loans)
    )
    return [f"Tolls: you hold {held} in toll money; loans taken: {told}"]


@hookimpl
def ttr_move_notes(view: PlayerView, action: Action) -> list[str] | None:
    """A claim's toll: how much, to whom, and the loan when the money held is short."""
    if not isinstance(action, ClaimRoute):
        return None
    route = view.board.routes[action.route]
    toll = route.extra.get("toll", 0)
    if not toll:
        return None
    payee = None
    if route.partner is not None:
        for seat in view.seats:
            if route.partner in seat.routes and seat.seat != action.player:
                payee = seat.seat
    to = "the bank" if payee is None else player_name(payee, view.viewer)
    if view.variants[f"{NAME}.holdings"] < toll:
        penalty = view_rules(view).option(NAME, "loan_penalty")
        return [
            f"toll {toll} to {to}: more than you hold, so you take a loan "
            f"(−{penalty} points at the end) and pay nothing"
        ]
    return [f"toll {toll}, paid to {to}"]


@hookimpl
def ttr_determinize(state: GameState, view: PlayerView, rng: random.Random) -> GameState:
    """Rebuild the toll state from a seat's view: its own value and every seat's loans
    as shown; the other seats' values drawn so that they agree with the public claims.

    The claims are replayed with what the view does not say drawn at random:
    which route of each pair both of whose routes are owned came first, and
    which of each seat's toll routes it claimed on a loan (as many as its
    loans). Each other seat holds what that replay leaves it (never below 0);
    the viewer holds its shown value; the bank's totals keep value conserved.
    """
    board = state.board
    owners = state.owners
    players = state.num_players
    start = state.rules.option(NAME, "start_value")
    loans = tuple(view.variants[f"{NAME}.loans"])
    # Which route of each owned pair came first, and which claims were on a loan.
    first: set[int] = set()
    for pair in board.routes:
        partner = pair.partner
        if (
            partner is not None
            and pair.id < partner
            and -1 not in (owners[pair.id], owners[partner])
        ):
            first.add(rng.choice((pair.id, partner)))
    on_loan: set[int] = set()
    for seat in range(players):
        tolled = [r for r in state.players[seat].routes if board.routes[r].extra.get("toll", 0)]
        on_loan.update(rng.sample(tolled, min(loans[seat], len(tolled))))
    holdings = [start] * players
    paid = 0
    for route, owner in enumerate(owners):
        toll = board.routes[route].extra.get("toll", 0)
        if owner == -1 or not toll:
            continue
        partner = board.routes[route].partner
        payee = None
        if partner is not None and partner in first and state.is_seat(owners[partner]):
            payee = owners[partner]
        if state.is_seat(owner) and route not in on_loan:
            holdings[owner] -= toll
        elif payee is not None:
            paid += toll  # a loan, or a non-seat owner: the bank pays the owner of the first
        if payee is not None:
            holdings[payee] += toll
    holdings = [max(0, value) for value in holdings]
    holdings[view.viewer] = view.variants[f"{NAME}.holdings"]
    # Value is conserved: sum(holdings) + bank_received - bank_paid == start * players;
    # the bank paid at least what the replay says.
    balance = start * players - sum(holdings)
    paid = max(paid, -balance)
    new = TollState(tuple(holdings), loans, bank_received=paid + balance, bank_paid=paid)
    return state.with_variant(NAME, new)


@hookimpl
def ttr_check_state(state: GameState) -> list[str]:
    current = state.variant(NAME)
    if not isinstance(current, TollState):
        return [f"{NAME}: the variant's state is missing"]
    seats = state.num_players
    problems = []
    for name, values in (("holdings", current.holdings), ("loans", current.loans)):
        # Named by the field's path below variant_state: "tolls.loans: ...".
        if len(values) != seats:
            problems.append(f"{NAME}.{name}: {name} has {len(values)} entries for {seats} seats")
        if any(v < 0 for v in values):
            problems.append(f"{NAME}.{name}: {name} cannot be negative")
    if current.bank_received < 0 or current.bank_paid < 0:
        problems.append(f"{NAME}: the bank's totals cannot be negative")
    start = state.rules.option(NAME, "start_value")
    if sum(current.holdings) + current.bank_received - current.bank_paid != start * seats:
        problems.append(
            f"{NAME}: toll value is not conserved (holdings + received - paid must be "
            f"{start * seats})"
        )
    return problems


@hookimpl
def ttr_agent_route_costs(view: PlayerView) -> list[float]:
    """Advice for bots (docs/bots.md): what claiming each route now costs the
    viewing seat beyond what its score sheet shows at once.

    A third of the toll it would pay (toll value kept is what the toll bonus
    ranks at the end) and, where the toll is more than the seat holds, the
    price of a Loan: the loan penalty, plus for a first loan half the best
    toll bonus it would forfeit. So the bots take no loan they can avoid.
    """
    holdings = view.variants[f"{NAME}.holdings"]
    loans = view.variants[f"{NAME}.loans"][view.viewer]
    options = dict(dict(view.options).get(NAME, ()))
    penalty = options.get("loan_penalty", LOAN_PENALTY)
    loan = penalty + (0 if loans else TOLL_BONUS.get(len(view.seats), (0,))[0] / 2)
    costs = []
    for route in view.board.routes:
        toll = route.extra.get("toll", 0)
        costs.append(toll / 3 + (loan if toll > holdings else 0.0))
    return costs
