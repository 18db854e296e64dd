"""What every state the rules reach keeps, checked on a state that comes from
elsewhere: a save read (``from_json``), a state ``determinize`` deals, a
decision a plugin opens (``effects``). Each check raises
:class:`~ttr_core.DataError` naming the field at fault.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ttr_core.errors import (
    DataError,
    PluginError,
    show,
)
from ttr_core.hooks import calls
from ttr_core.hooks.manager import installed_plugins
from ttr_core.mapfiles.limits import MAX_DISPLAY
from ttr_core.model.board import turn_wild
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    EARLY_ENDINGS,
    UNCLAIMED,
    GameState,
    Pending,
    PendingKind,
    Termination,
    cards_outside_hands,
    replace_state,
)
from ttr_core.rules.kernel.work import MAX_DISPLAY_RESETS, can_take_second
from ttr_core.rules.views import non_seat_owners

#: Most actions a game record may hold.
MAX_ACTIONS = 200_000


def _check_state(state: GameState) -> None:
    """Every invariant a state read from a file must keep (``DataError`` with a path):
    what the rules keep in every state they reach, so that play goes on from it
    (``determinize`` checks the states it builds with this too)."""
    try:
        _check_core(state)
        _check_variants(state)
    except PluginError as exc:
        # A variant that cannot make sense of the state read: its state is bad.
        raise DataError("variant_state", f"the variants cannot use this state: {exc}") from None
    _check_answerable(state)


def _check_answerable(state: GameState) -> None:
    """The pending decision can be answered: ``legal_actions`` lists something
    (a variant's decision its hooks answer; a core one always can once it is
    well formed, so this lists few actions: an offer is at most the map's size)."""
    if state.pending is None:
        return
    from ttr_core.rules.engine import legal_actions

    try:
        legal_actions(state)
    except PluginError as exc:
        # A kind no variant answers (``_known_kind`` only checks its prefix) is the usual cause.
        path = "pending" if state.pending.kind in _CORE_KINDS else "pending.kind"
        raise DataError(path, f"no action can answer this decision: {exc}") from None


def _check_core(state: GameState) -> None:
    board = state.board
    kinds = len(board.card_names)
    n = state.num_players
    if len(state.display) != board.rules.display_size:
        raise DataError(
            "display", f"expected {board.rules.display_size} slots, not {len(state.display)}"
        )
    if len(state.owners) != len(board.routes):
        raise DataError(
            "owners", f"expected one owner per route ({len(board.routes)}), not {len(state.owners)}"
        )
    declared = {o.owner for o in non_seat_owners(state)}
    for rid, owner in enumerate(state.owners):
        if owner != UNCLAIMED and not 0 <= owner < n and owner not in declared:
            raise DataError(
                f"owners[{rid}]", f"{owner} is neither a seat, a declared owner nor {UNCLAIMED}"
            )
    claimed_by: dict[int, int] = {}
    totals = cards_outside_hands(state)
    for seat, player in enumerate(state.players):
        where = f"players[{seat}]"
        for card, count in enumerate(player.hand.counts):
            totals[card] += count
        if player.known and (
            len(player.known) != kinds
            or any(k < 0 or k > c for k, c in zip(player.known, player.hand.counts, strict=True))
        ):
            raise DataError(f"{where}.known", "more known cards than the hand holds")
        if player.known and not any(player.known):
            # The engine's form when no card is known (``()``), which a save writes as {}.
            raise DataError(f"{where}.known", "a known count of 0 is left out")
        for i, rid in enumerate(player.routes):
            if not 0 <= rid < len(board.routes):
                raise DataError(f"{where}.routes[{i}]", f"there is no route {rid}")
            if rid in claimed_by:
                raise DataError(
                    f"{where}.routes[{i}]",
                    f"route {rid} is owned twice (seat {claimed_by[rid]} too)",
                )
            claimed_by[rid] = seat
            if state.owners[rid] != seat:
                raise DataError(
                    f"{where}.routes[{i}]", f"owners[{rid}] is {state.owners[rid]}, not {seat}"
                )
            partner = board.routes[rid].partner
            if partner is not None and state.owners[partner] == seat:
                raise DataError(
                    f"{where}.routes[{i}]",
                    f"seat {seat} owns both routes of a pair ({rid}, {partner})",
                )
        placed = sum(board.routes[r].length for r in player.routes)
        if player.cars != board.rules.cars_per_player - placed:
            raise DataError(
                f"{where}.cars",
                f"{player.cars} cars, but {board.rules.cars_per_player} less the {placed} placed "
                f"is {board.rules.cars_per_player - placed}",
            )
        start = board.rules.start_scores[seat] if seat < len(board.rules.start_scores) else 0
        points = start + sum(
            board.rules.route_points[board.routes[r].length] for r in player.routes
        )
        if player.score != points + player.play_points:
            raise DataError(
                f"{where}.score",
                f"{player.score}, but the start score, the routes and the play points make "
                f"{points + player.play_points}",
            )
    for rid, owner in enumerate(state.owners):
        if 0 <= owner < n and claimed_by.get(rid) != owner:
            raise DataError(f"owners[{rid}]", f"seat {owner} owns route {rid} but does not list it")
    for card, (have, want) in enumerate(zip(totals, board.deck, strict=True)):
        if have != want:
            raise DataError(
                "deck", f"{have} {board.card_names[card]} cards in the game where there are {want}"
            )
    _check_pending(state)
    from ttr_core.hooks.checks import ticket_places

    placed_tickets = ticket_places(state)
    if sorted(placed_tickets) != list(range(len(board.tickets))):
        raise DataError("ticket_deck", "tickets are not each in exactly one place")
    _check_counters(state)
    _check_ending(state.termination, state.forfeit, n)
    _check_display(state)


#: Most shuffles a state may count. A shuffle happens only while an action (or
#: the setup, which makes the first two) draws: a ticket draw shuffles once, and
#: a card draw at most once per card it turns up, which is the display reset
#: (E3) at most ``MAX_DISPLAY_RESETS + 2`` times over per action (each laying
#: at most ``MAX_DISPLAY`` cards, plus the card taken): so never more than this
#: in :data:`MAX_ACTIONS` actions. The count seeds the next shuffle, so a
#: bound keeps that work small too (a count of thousands of digits would not
#: even turn into text).
MAX_SHUFFLES = 2 + MAX_ACTIONS * (1 + (MAX_DISPLAY_RESETS + 2) * (MAX_DISPLAY + 1))


def _check_counters(state: GameState) -> None:
    """Counters within what a game can reach: the pending seat, the final round
    (-1 until triggered, then the turns left: never 0 in a game going on),
    passes in a row (fewer than the seats while going on: a full round ends
    it), turns and actions (a record holds at most :data:`MAX_ACTIONS`; a turn
    is at least one action) and shuffles (:data:`MAX_SHUFFLES`)."""
    n = state.num_players
    pending = state.pending
    over = state.termination is not None
    if (pending is None) != over:
        raise DataError("pending", "a game with no pending decision must be over, and the reverse")
    if pending is not None and not 0 <= pending.player < n:
        raise DataError("pending.player", f"{pending.player} is not a seat (0 to {n - 1})")
    if not -1 <= state.final_turns <= n or (state.final_turns == 0 and not over):
        allowed = f"-1 or 1 to {n} in a game going on" if not over else f"-1 to {n}"
        raise DataError("final_turns", f"expected {allowed}, not {show(state.final_turns)}")
    if not 0 <= state.passes <= n or (state.passes >= n and not over):
        top = n if over else n - 1
        raise DataError("passes", f"expected 0 to {top}, not {show(state.passes)}")
    # Read from a file they are whole numbers ≥ 0 already; determinize builds them.
    if not 0 <= state.ply <= MAX_ACTIONS:
        raise DataError("ply", f"expected 0 to {MAX_ACTIONS} actions, not {show(state.ply)}")
    if not 0 <= state.turn <= MAX_ACTIONS:
        raise DataError("turn", f"expected 0 to {MAX_ACTIONS} turns, not {show(state.turn)}")
    if not 2 <= state.shuffles <= MAX_SHUFFLES:
        raise DataError(
            "shuffles",
            f"expected 2 (the setup's) to {MAX_SHUFFLES}, not {show(state.shuffles)}",
        )
    trigger = state.board.rules.end_trigger_cars
    if state.final_turns == -1 and pending is not None and pending.kind == PendingKind.TURN:
        for seat, player in enumerate(state.players):
            if player.cars <= trigger:
                raise DataError(
                    "final_turns",
                    f"seat {seat} has {player.cars} cars (the end trigger is {trigger}): "
                    "the final round has begun",
                )


def _check_display(state: GameState) -> None:
    """The display as the engine lays it: an empty slot only with no card left to
    fill it (E4), too many wilds only when no reset could help (E3)."""
    for problem in display_rules(state):
        raise DataError("display", problem)


def _check_pending(state: GameState, *, any_kind: bool = False) -> None:
    """The pending decision well formed for its kind, and the starting offers
    with it: only the ticket choices offer tickets, each offer of the map's
    size (the starting deal, or at most a draw), of distinct tickets, with the
    minimum to keep the rules ask; seats still to make their starting choice
    each hold one dealt offer; a second card is asked for only when one can
    be taken; the core's decisions carry no data. ``any_kind``: a variant's kind
    need not be named after a variant of the game (the effect helpers, called
    by a plugin, check only the rest)."""
    pending = state.pending
    rules = state.board.rules
    offers = state.start_offers
    choosing = pending is not None and pending.kind == PendingKind.START_TICKETS
    if offers and not choosing:
        raise DataError("start_offers", "seats hold starting offers only while choosing them")
    if pending is None:
        return
    kind = pending.kind
    if kind not in _CORE_KINDS:
        if not any_kind and not _known_kind(str(kind), state.rules.variants):
            # A decision nobody can answer: the core's kinds, or a variant's own, named after it.
            raise DataError(
                "pending.kind",
                f"{show(str(kind))} is neither a core decision "
                f"({', '.join(str(k) for k in PendingKind)}) nor one of a variant of the game "
                f"(starting with its name: {', '.join(state.rules.variants) or 'none'})",
            )
        if pending.offered or pending.min_keep:
            # Tickets offered in a variant's decision would be lost when it ends.
            field = "offered" if pending.offered else "min_keep"
            raise DataError(f"pending.{field}", f"a {show(str(kind))} decision offers no tickets")
        _check_resumed(state, pending.data)
        return
    if pending.data is not None:
        raise DataError("pending.data", f"a {kind} decision carries no data")
    if kind in (PendingKind.TURN, PendingKind.SECOND_CARD):
        if pending.offered:
            raise DataError("pending.offered", f"a {kind} decision offers no tickets")
        if pending.min_keep:
            raise DataError("pending.min_keep", f"a {kind} decision keeps no tickets")
        if kind == PendingKind.SECOND_CARD and not can_take_second(
            state.deck, state.discard, state.display, turn_wild(state.board)
        ):
            raise DataError("pending.kind", "a second card is asked for where none can be taken")
        return
    if kind == PendingKind.START_TICKETS:
        low = high = rules.start_tickets_dealt
        keep = rules.start_tickets_keep
        if state.turn:
            raise DataError("pending.kind", "the starting choice comes before the first turn")
        waiting = state.num_players - 1 - pending.player
        if len(offers) != waiting:
            raise DataError(
                "pending.player" if len(offers) < state.num_players else "start_offers",
                f"seat {pending.player} chooses its starting tickets, so {max(waiting, 0)} "
                f"seats after it hold an offer, not {len(offers)}",
            )
        for i, offer in enumerate(offers):
            _check_offer(state, offer, low, high, f"start_offers[{i}]")
    else:
        low, high = 1, rules.draw_tickets
        keep = rules.draw_tickets_keep
    _check_offer(state, pending.offered, low, high, "pending.offered")
    wanted = min(keep, len(pending.offered))
    # A variant may ask a seat to keep more of a drawn offer (effects.offer_tickets).
    most = len(pending.offered) if kind == PendingKind.KEEP_TICKETS else wanted
    if not wanted <= pending.min_keep <= most:
        asked = str(wanted) if most == wanted else f"{wanted} to {most}"
        raise DataError(
            "pending.min_keep",
            f"keep at least {asked} of the {len(pending.offered)} offered, "
            f"not {show(pending.min_keep)}",
        )


def _check_resumed(state: GameState, data: Any) -> None:
    """Decisions a variant's decision keeps in its data, to resume once it is made
    (``neutral.choose`` keeps the turn that waits): each a decision of a seat,
    well formed for its kind and offering no tickets (those would be in no place)."""
    items = data if isinstance(data, tuple) else (data,)
    waiting = [item for item in items if isinstance(item, Pending)]
    for resumed in waiting:
        if resumed.offered or resumed.min_keep or resumed.kind == PendingKind.START_TICKETS:
            raise DataError("pending.data", "a decision to resume offers no tickets")
        if not 0 <= resumed.player < state.num_players:
            raise DataError("pending.data", f"a decision to resume is seat {resumed.player}'s")
        try:
            _check_pending(replace_state(state, pending=resumed))
        except DataError as exc:
            raise DataError("pending.data", f"the decision to resume: {exc}") from None


def _check_offer(state: GameState, offer: tuple[int, ...], low: int, high: int, path: str) -> None:
    """``offer``: ``low`` to ``high`` distinct tickets of the map."""
    if not low <= len(offer) <= high:
        size = str(low) if low == high else f"{low} to {high}"
        raise DataError(path, f"an offer holds {size} tickets, not {len(offer)}")
    tickets = len(state.board.tickets)
    for i, ticket in enumerate(offer):
        if not 0 <= ticket < tickets:
            raise DataError(f"{path}[{i}]", f"there is no ticket {show(ticket)}")
    if len(set(offer)) != len(offer):
        raise DataError(path, "a ticket is offered twice")


_CORE_KINDS = frozenset(PendingKind)


def _check_ending(termination: Termination | None, forfeit: int | None, players: int) -> None:
    """A forfeiting seat exactly when a resignation or timeout ended the game."""
    names_seat = EARLY_ENDINGS.get(termination) if termination is not None else None
    if names_seat:
        if forfeit is None or not 0 <= forfeit < players:
            raise DataError("forfeit", f"a {termination} names a seat (0 to {players - 1})")
    elif forfeit is not None:
        raise DataError(
            "forfeit", f"only a resignation or a timeout names a seat, not {termination}"
        )


def _check_variants(state: GameState) -> None:
    for variant, problem in calls.run_check_state(state.rules, state):
        key = problem.split(":", 1)[0] if ":" in problem else variant
        raise DataError(f"variant_state.{key}", problem)


def _known_kind(kind: str, variants: Sequence[str]) -> bool:
    """Whether ``kind`` is a decision of the core or of one of ``variants``."""
    if kind in {str(k) for k in PendingKind}:
        return True
    return any(kind == v or kind.startswith(v + ".") for v in variants)


# -- the rules' invariants the checks above and the testing kit share ---------------


def car_accounting(state: GameState) -> Iterator[str]:
    """Each seat holds its cars less the lengths of its routes, never below 0;
    before the final round, no seat is at or below the end trigger."""
    board = state.board
    rules = board.rules
    for seat, player in enumerate(state.players):
        placed = sum(board.routes[r].length for r in player.routes)
        if player.cars != rules.cars_per_player - placed:
            yield (
                f"seat {seat} has {player.cars} cars; {rules.cars_per_player} less the "
                f"{placed} placed is {rules.cars_per_player - placed}"
            )
        if player.cars < 0:
            yield f"seat {seat} has {player.cars} cars"
        if (
            state.final_turns == -1
            and not state.is_over
            and state.pending is not None
            and state.pending.kind == "turn"
            and player.cars <= rules.end_trigger_cars
        ):
            yield (
                f"seat {seat} has {player.cars} cars (the end trigger is "
                f"{rules.end_trigger_cars}) but the final round has not started"
            )
    if not -1 <= state.final_turns <= state.num_players:
        yield f"final_turns is {state.final_turns}"


def route_ownership(state: GameState) -> Iterator[str]:
    """Each route has one owner at most, listed by that seat once; nobody owns both
    routes of a pair; with the pair policy closed, never both routes of a pair are
    claimed; the policy is the map's for the player count unless a variant decides."""
    board = state.board
    n = state.num_players
    owners = state.owners
    if len(owners) != len(board.routes):
        yield f"{len(owners)} owners for {len(board.routes)} routes"
        return
    declared = {o.owner for o in non_seat_owners(state)}
    for rid, owner in enumerate(owners):
        if owner != UNCLAIMED and not 0 <= owner < n and owner not in declared:
            yield f"route {rid} is owned by {owner}, neither a seat nor a declared owner"
    listed: dict[int, int] = {}
    for seat, player in enumerate(state.players):
        for rid in player.routes:
            if not 0 <= rid < len(owners):
                yield f"seat {seat} lists route {rid}, which does not exist"
                continue
            if rid in listed:
                yield f"route {rid} is listed by seat {listed[rid]} and seat {seat}"
            listed[rid] = seat
            if owners[rid] != seat:
                yield f"seat {seat} lists route {rid}, owned by {owners[rid]}"
    for rid, owner in enumerate(owners):
        if 0 <= owner < n and listed.get(rid) != owner:
            yield f"seat {owner} owns route {rid} but does not list it"
    usable = state.rules.both_pair_routes_usable
    for route in board.routes:
        partner = route.partner
        if partner is None or route.id > partner:
            continue
        a, b = owners[route.id], owners[partner]
        if a != UNCLAIMED and a == b:
            yield f"owner {a} owns both routes {route.id} and {partner} of a pair"
        elif a != UNCLAIMED and b != UNCLAIMED and not usable:
            yield (
                f"both routes {route.id} and {partner} of a pair are claimed with "
                f"{n} players, where only one may be"
            )
    if not _pair_policy_decided_by_variant(state.rules):
        expected = n >= board.rules.both_pair_routes_min_players
        if usable != expected:
            yield (
                f"both routes of a pair are {'usable' if usable else 'not usable'} with {n} "
                f"players; the map says {'usable' if expected else 'not usable'}"
            )


def _pair_policy_decided_by_variant(rules: GameRules) -> bool:
    plugins = installed_plugins()
    return any(
        "ttr_both_pair_routes_usable" in plugins[v].impls for v in rules.variants if v in plugins
    )


def display_rules(state: GameState) -> Iterator[str]:
    """A face-up slot is empty only while deck and discard pile are (E4); the display
    shows more wilds than allowed only when no reset could help (E3)."""
    board = state.board
    wild = board.wild
    limit = board.rules.max_face_up_wilds
    if None in state.display and (state.deck or any(state.discard)):
        yield "a face-up slot is empty while cards are left to fill it (E4)"
    if state.display.count(wild) > limit and _reset_could_help(state):
        yield (
            f"the display shows {state.display.count(wild)} wilds (at most {limit}) though "
            f"a reset could lay a better one (E3)"
        )


def _reset_could_help(state: GameState) -> bool:
    wild = state.board.wild
    limit = state.board.rules.max_face_up_wilds
    shown = [c for c in state.display if c is not None]
    pool = len(state.deck) + sum(state.discard) + len(shown)
    pool_wild = state.deck.count(wild) + state.discard[wild] + shown.count(wild)
    return pool - pool_wild >= min(len(state.display), pool) - limit
