"""The core's invariants: what every state, every step and every game of the
rules keeps (cards and tickets conserved, routes owned once, scores adding up,
the display's rules, decisions answerable, legal actions exact, views hiding
what they should, games ending and replaying alike on the pure API and a
playout), each registered by name in :mod:`ttr_core.checking.registry`
when this module is imported (``ttr_core.checking`` imports it).
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

import attrs

from ttr_core.checking.probes import _rng, hidden_changes, illegal_candidates, reachable
from ttr_core.checking.registry import GamePlay, Kind, invariant
from ttr_core.data.records import replay
from ttr_core.errors import ArgumentError, IllegalAction, TtrError, show
from ttr_core.hooks import checks as hookcheck
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    Pass,
)
from ttr_core.model.board import Board
from ttr_core.model.gamerules import GameRules
from ttr_core.model.state import (
    UNCLAIMED,
    GameState,
    Hand,
    Pending,
    PendingKind,
    PlayerState,
    Termination,
    cards_outside_hands,
)
from ttr_core.native import why_not as why_not_native
from ttr_core.observation import ObservationEncoder, observation_encoder
from ttr_core.rules.action_ids import legal_action_ids
from ttr_core.rules.consistency import car_accounting, display_rules, route_ownership
from ttr_core.rules.determinize import determinize
from ttr_core.rules.engine import apply, legal_actions
from ttr_core.rules.scoring import final_scores, score_sheets, utilities
from ttr_core.rules.setup import new_game
from ttr_core.rules.views import player_view
from ttr_core.search.playout import Playout

__all__ = ["CORE_INVARIANTS", "LISTED_SAMPLE", "action_bound"]


def cards_conserved(state: GameState) -> Iterator[str]:
    """Every transportation card is in exactly one place: deck, display, discard pile
    or a hand; no count is negative; known cards never exceed the hand."""
    board = state.board
    kinds = len(board.card_names)
    if len(state.display) != board.rules.display_size:
        yield f"the display has {len(state.display)} slots, not {board.rules.display_size}"
    if len(state.discard) != kinds or any(n < 0 for n in state.discard):
        yield f"the discard pile is not a non-negative count per card: {state.discard}"
        return
    totals = cards_outside_hands(state)
    for seat, player in enumerate(state.players):
        counts = player.hand.counts
        if len(counts) != kinds or any(n < 0 for n in counts):
            yield f"seat {seat}'s hand is not a non-negative count per card: {counts}"
            return
        for card, n in enumerate(counts):
            totals[card] += n
        known = player.known
        if known and (
            len(known) != kinds or any(not 0 <= k <= n for k, n in zip(known, counts, strict=True))
        ):
            yield f"seat {seat} has known cards {known} its hand {counts} does not hold"
    for card, (have, want) in enumerate(zip(totals, board.deck, strict=True)):
        if have != want:
            yield f"{have} {board.card_names[card]} cards are in play; the map has {want}"


def tickets_conserved(state: GameState) -> Iterator[str]:
    """Every destination ticket is in exactly one place: the ticket deck or discard
    pile, a seat's tickets, the pending offer, or a seat's starting offer."""
    places = Counter(hookcheck.ticket_places(state))
    everything = range(len(state.board.tickets))
    missing = [t for t in everything if t not in places]
    twice = sorted(t for t, n in places.items() if n > 1)
    unknown = sorted(t for t in places if t not in everything)
    if missing:
        yield f"tickets {missing} are nowhere"
    if twice:
        yield f"tickets {twice} are in two places"
    if unknown:
        yield f"there are no tickets {unknown}"


def running_score(state: GameState) -> Iterator[str]:
    """Each seat's running score is its start score, its routes' points and the
    points variants awarded during play."""
    board = state.board
    starts = board.rules.start_scores
    for seat, player in enumerate(state.players):
        start = starts[seat] if seat < len(starts) else 0
        routes = sum(board.rules.route_points[board.routes[r].length] for r in player.routes)
        if player.score != start + routes + player.play_points:
            yield (
                f"seat {seat} scores {player.score}; start {start} + routes {routes} + play "
                f"points {player.play_points} make {start + routes + player.play_points}"
            )


def score_breakdown(state: GameState) -> Iterator[str]:
    """Every score sheet's total is the sum of its lines, its tickets are all counted
    once; at the end the winners have the highest total."""
    sheets = final_scores(state).sheets if state.is_over else score_sheets(state)
    if len(sheets) != state.num_players:
        yield f"{len(sheets)} score sheets for {state.num_players} seats"
    for seat, sheet in enumerate(sheets):
        if sheet.player != seat:
            yield f"sheet {seat} is seat {sheet.player}'s"
        points = sum(line.points for line in sheet.lines)
        if sheet.total != points:
            yield f"seat {seat}'s sheet totals {sheet.total}; its lines add up to {points}"
        tickets = len(state.players[seat].tickets)
        if sheet.tickets_completed + sheet.tickets_failed != tickets:
            yield (
                f"seat {seat}'s sheet counts {sheet.tickets_completed} + "
                f"{sheet.tickets_failed} tickets; it holds {tickets}"
            )
    if state.is_over:
        scores = final_scores(state)
        # The seats that may win: every seat; none of an abandoned game; all
        # but the seat that resigned or ran out of time (docs/rules.md).
        ending = state.termination
        if ending == Termination.ABANDONED:
            may_win = []
        else:
            may_win = [s for s in range(state.num_players) if s != state.forfeit]
        best = max((scores.totals[s] for s in may_win), default=None)
        if (bool(scores.winners) != bool(may_win)) or any(
            w not in may_win or scores.totals[w] != best for w in scores.winners
        ):
            yield (
                f"winners {scores.winners} for totals {scores.totals} "
                f"(ended by {ending}, forfeit {state.forfeit})"
            )
        if scores.termination != state.termination:
            yield f"the scores say the game ended by {scores.termination}, not {state.termination}"


def decision(state: GameState) -> Iterator[str]:
    """The game waits for a seat's decision exactly when it is not over; the legal
    actions are that seat's, none twice; ``Pass`` only alone, in a turn (E1)."""
    pending = state.pending
    legal = legal_actions(state)
    if (pending is None) != (state.termination is not None):
        yield "a game waits for a decision exactly when it is not over"
    if pending is None:
        if legal:
            yield f"a finished game lists {len(legal)} legal actions"
        return
    if not 0 <= pending.player < state.num_players:
        yield f"the pending decision is seat {pending.player}'s, not a seat"
    if not legal:
        yield "a game that is not over lists no legal action"
    if len(set(legal)) != len(legal):
        twice = [a for a, n in Counter(legal).items() if n > 1]
        yield f"actions listed twice: {twice[:3]}"
    others = [a for a in legal if a.player != pending.player]
    if others:
        yield f"actions of another seat listed: {others[:3]}"
    passes = [a for a in legal if type(a) is Pass]
    if passes and (len(legal) > 1 or pending.kind != "turn"):
        yield f"Pass is listed with {len(legal) - 1} other actions in a {pending.kind!r} decision"
    if pending.kind in ("start_tickets", "keep_tickets") and not (
        pending.offered and 0 <= pending.min_keep <= len(pending.offered)
    ):
        yield f"a ticket choice offers {pending.offered} and asks to keep {pending.min_keep}"
    if state.passes > state.num_players:
        yield f"{state.passes} passes in a row with {state.num_players} seats"


#: The most listed actions :func:`legal_actions_exact` applies in one state (drawn
#: from the state when more are listed; the action played is applied anyway).
LISTED_SAMPLE = 12


def legal_actions_exact(state: GameState) -> Iterator[str]:
    """``legal_actions`` is exact: each listed action applies (every one, or
    :data:`LISTED_SAMPLE` drawn from the state when more are listed); sampled
    well-formed actions that are not listed are refused with ``IllegalAction``;
    neither changes the state."""
    legal = legal_actions(state)
    snapshot = attrs.evolve(state)
    rng = _rng(state, "exact")
    tried = legal if len(legal) <= LISTED_SAMPLE else rng.sample(legal, LISTED_SAMPLE)
    for action in tried:
        try:
            after = apply(state, action)
        except Exception as exc:
            yield f"listed {action!r} is refused: {type(exc).__name__}: {exc}"
            continue
        if not isinstance(after, GameState):
            yield f"listed {action!r} gives {type(after).__name__}, not a GameState"
    listed = set(legal)
    for action in illegal_candidates(state, rng, limit=8):
        if action in listed:
            continue
        try:
            apply(state, action)
        except IllegalAction:
            pass
        except Exception as exc:
            yield f"unlisted {action!r} raises {type(exc).__name__}, not IllegalAction: {exc}"
        else:
            yield f"{action!r} is not listed but apply accepts it"
    if state != snapshot or legal_actions(state) != legal:
        yield "applying actions changed the state they were applied to"


def views_hide_secrets(state: GameState) -> Iterator[str]:
    """No view holds a game state or another seat's hand, and states that differ
    only in what a seat cannot see (another hand, the deck's order, the discard
    pile, another seat's tickets and offer, the seed) give it the same view.
    Each check looks through the eyes of one seat, drawn from the state."""
    rng = _rng(state, "views")
    viewer = rng.randrange(state.num_players)
    view = player_view(state, viewer)
    for path, value in reachable(view):
        if isinstance(value, GameState | PlayerState | Pending | GameRules):
            yield f"seat {viewer}'s view holds a {type(value).__name__} at {path}"
        elif isinstance(value, Hand) and path != "view.hand":
            yield f"seat {viewer}'s view holds a hand at {path}"
    for what, changed in hidden_changes(state, viewer, rng):
        if player_view(changed, viewer) != view:
            yield f"seat {viewer}'s view changes with {what}, which it cannot see"


#: Actions of a determinized state applied per check: a few, drawn.
DEALT_SAMPLE = 4


def determinized_states_play(state: GameState) -> Iterator[str]:
    """A state dealt from another seat's view (:func:`ttr_core.determinize`) plays
    on: the actions it lists for the seat deciding (a few, drawn) apply. What
    the view knows of that seat's hand must be enough to finish what it began
    (a payment laid down before it is complete: ``effects.show_cards``). Seen
    from a seat other than the one deciding; games whose variants cannot be
    determinized (state without a ``ttr_determinize`` hook) are not checked."""
    pending = state.pending
    if pending is None or state.num_players < 2:
        return
    rules = state.rules
    rebuilt = {impl.variant for impl in rules.determinize}
    if any(impl.variant not in rebuilt for impl in rules.setup):
        return
    rng = _rng(state, "dealt")
    viewer = rng.choice([seat for seat in range(state.num_players) if seat != pending.player])
    try:
        dealt = determinize(player_view(state, viewer), seed=rng.randrange(2**32))
    except ArgumentError:
        return  # a view no game could give: the state breaks a rule the others check
    except TtrError as exc:
        yield f"seat {viewer}'s view cannot be dealt into a state: {exc}"
        return
    try:
        legal = legal_actions(dealt)
    except TtrError as exc:
        yield f"a state dealt from seat {viewer}'s view lists no actions: {exc}"
        return
    for action in rng.sample(legal, min(DEALT_SAMPLE, len(legal))):
        try:
            apply(dealt, action)
        except TtrError as exc:
            yield (
                f"a state dealt from seat {viewer}'s view lists {show(action)}, "
                f"which it refuses: {exc}"
            )


def claims_are_permanent(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """What is settled stays settled: a claimed route keeps its owner, a kept ticket
    stays kept, cars never come back, turns and shuffles never go back, the
    move counter (``ply``) counts each action once, and the final round, once
    started, only counts down."""
    if after.ply != before.ply + 1:
        yield f"ply went from {before.ply} to {after.ply}, not up by one action"
    for rid, (was, now) in enumerate(zip(before.owners, after.owners, strict=True)):
        if was != UNCLAIMED and now != was:
            yield f"route {rid} changed owner from {was} to {now}"
    for seat, (old, new) in enumerate(zip(before.players, after.players, strict=True)):
        if not set(old.tickets) <= set(new.tickets):
            yield f"seat {seat} lost kept tickets {sorted(set(old.tickets) - set(new.tickets))}"
        if new.cars > old.cars:
            yield f"seat {seat}'s cars went from {old.cars} up to {new.cars}"
    if after.turn < before.turn or after.shuffles < before.shuffles:
        yield "the turn count or the shuffle count went back"
    if before.final_turns != -1 and not (
        after.final_turns <= before.final_turns and after.final_turns != -1
    ):
        yield f"the final round count went from {before.final_turns} to {after.final_turns}"


def claim_effect(before: GameState, action: Action, after: GameState) -> Iterator[str]:
    """A claim gives the seat the route and takes exactly its length in cars; a
    claim a variant makes wait (``ttr_before_claim``) changes no owner, car or
    hand (the cards it shows may become known: ``effects.show_cards``). (A
    decision opened after the claim, ``ttr_after_claim``, keeps the turn: the
    kernel does not end it, and the variant's own transition check states its
    rule.)"""
    if type(action) is not ClaimRoute:
        return
    route = before.board.routes[action.route]
    pending = after.pending
    waits = (
        pending is not None
        and pending.player == action.player
        and pending.kind not in frozenset(PendingKind)
    )
    if waits and after.owners[route.id] == UNCLAIMED and before.rules.before_claim:
        unseen = [attrs.evolve(player, known=()) for player in after.players]
        if after.owners != before.owners or unseen != [
            attrs.evolve(player, known=()) for player in before.players
        ]:
            yield f"{action!r} waits for a decision but changed owners or players already"
        return
    if after.owners[route.id] != action.player:
        yield f"{action!r} left route {route.id} owned by {after.owners[route.id]}"
    cars = before.players[action.player].cars - after.players[action.player].cars
    if cars != route.length:
        yield f"{action!r} took {cars} cars for a route of length {route.length}"


def action_bound(board: Board, players: int) -> int:
    """A generous bound on the actions of any game of ``board``: between two claims
    at most every card is drawn once and every ticket choice made, and there are at
    most as many claims as routes."""
    per_claim = 2 * board.total_cards + 4 * players + 4
    return (len(board.routes) + 1) * per_claim + 4 * len(board.tickets) + 10 * players


def terminates(play: GamePlay) -> Iterator[str]:
    """A game ends within :func:`action_bound` actions (or the bound the game was
    played with)."""
    state = play.state
    bound = play.max_actions
    if bound is None:
        bound = action_bound(state.board, state.num_players)
    if len(play.actions) > bound:
        yield f"the game has gone on for {len(play.actions)} actions (bound: {bound})"


def determinism(play: GamePlay) -> Iterator[str]:
    """The same seed sets up the same game, and replaying the game's record
    reproduces every state."""
    first = play.states[0]
    options = {v: dict(values) for v, values in first.rules.options}
    again = new_game(
        first.board,
        first.num_players,
        seed=first.seed,
        variants=first.rules.variants,
        options=options,
    )
    if again != first:
        yield "new_game with the same seed and configuration gave another state"
        return
    try:
        for i, (state, replayed) in enumerate(
            zip(play.states, replay(play.record, board=first.board), strict=True)
        ):
            if state != replayed:
                yield f"replaying the record gives another state after {i} actions"
                return
    except (TtrError, ValueError) as exc:
        yield f"the record does not replay: {exc}"


def playout_agrees(play: GamePlay) -> Iterator[str]:
    """Played through a :class:`~ttr_core.Playout` on the Python kernel (the
    rules kernel played in place), the game's actions list the same legal
    actions and reach the same states as through the pure API."""
    yield from _agrees(Playout(play.states[0], engine="python"), play)


def native_agrees(play: GamePlay) -> Iterator[str]:
    """Played on the compiled engine (when it was built and the game's
    variants all declare native rules: ``ttr_native_rules``), the game's
    actions list the same legal actions and ids, reach the same states, every
    seat's observation vector the engine writes is the Python encoder's (where
    the engine writes the variants' numbers: ``NativeRule.views``), and the
    engine's own count at the end (totals and winners) is ``final_scores``': a
    variant's native declaration that is not all it does shows here. Holds
    trivially for a game that does not run natively."""
    first = play.states[0]
    if why_not_native(first) is not None:
        return
    playout = Playout(first, engine="native")
    rules = first.rules
    options = {variant: dict(values) for variant, values in rules.options}
    encoder = observation_encoder(first.board, len(first.players), rules.variants, options)
    yield from _agrees(playout, play, encoder if encoder.natively else None)
    last = play.states[-1]
    if last.is_over and playout.is_over() and playout.snapshot() == last:
        scores = final_scores(last)
        if playout.returns() != tuple(utilities(scores.winners, len(last.players))):
            yield "the native engine's count names other winners than final_scores"
        if playout.totals() != tuple(sheet.total for sheet in scores.sheets):
            yield "the native engine's count gives other totals than final_scores"


def _agrees(
    playout: Playout, play: GamePlay, encoder: ObservationEncoder | None = None
) -> Iterator[str]:
    native = playout.engine == "native"
    for i, action in enumerate(play.actions):
        if encoder is not None:
            seen = _observed_otherwise(encoder, playout, play.states[i])
            if seen is not None:
                yield f"the native engine observes seat {seen} otherwise after {i} actions"
                return
        state = play.states[i]
        if playout.legal_actions() != legal_actions(state):
            yield f"the playout lists other legal actions after {i} actions"
            return
        if native and playout.legal_ids() != legal_action_ids(state):
            yield f"the native engine lists other action ids after {i} actions"
            return
        try:
            playout.apply(action)
        except TtrError as exc:
            yield f"the playout refused action {i + 1} ({show(action)}): {exc}"
            return
        if playout.snapshot() != play.states[i + 1]:
            yield f"the playout reaches another state after {i + 1} actions"
            return
    if encoder is not None:
        seen = _observed_otherwise(encoder, playout, play.states[-1])
        if seen is not None:
            yield f"the native engine observes seat {seen} otherwise at the end"


def _observed_otherwise(
    encoder: ObservationEncoder, playout: Playout, state: GameState
) -> int | None:
    """The first seat whose vector the engine writes otherwise than the Python
    encoder does from ``state`` (both as 32-bit floats), or ``None``."""
    for seat in range(len(state.players)):
        if list(encoder.observe(playout, seat)) != list(
            array("f", encoder.encode_state(state, seat))
        ):
            return seat
    return None


_CORE: list[tuple[Kind, Callable[..., Iterable[str] | None], int]] = [
    ("state", cards_conserved, 1),
    ("state", tickets_conserved, 1),
    ("state", car_accounting, 1),
    ("state", route_ownership, 1),
    ("state", running_score, 1),
    ("state", score_breakdown, 3),
    ("state", display_rules, 1),
    ("state", decision, 1),
    ("state", legal_actions_exact, 1),
    ("state", views_hide_secrets, 4),
    ("state", determinized_states_play, 4),
    ("transition", claims_are_permanent, 1),
    ("transition", claim_effect, 1),
    ("game", terminates, 1),
    ("game", determinism, 1),
    ("game", playout_agrees, 1),
    ("game", native_agrees, 1),
]


#: The names of the core's invariants, in order.
CORE_INVARIANTS: tuple[str, ...] = tuple(function.__name__ for _, function, _ in _CORE)


for _kind, _function, _every in _CORE:
    invariant(kind=_kind, every=_every)(_function)
