"""What a seat's view tells, in the agents' terms: the board as a graph (kept
on the board), and :class:`Seen`, the view read once per decision: routes
free, owned and closed, the seat's network, its tickets, its cards and what
the variants advise.
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from typing import Any

import attrs

from ttr_core.agents.base import _CORE_ACTIONS, CACHE_KEY, RISK
from ttr_core.errors import TtrError
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules
from ttr_core.mapfiles.ticketgen import shortest_spaces
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
)
from ttr_core.model.board import GRAY, Board, derive
from ttr_core.model.declarations import ActionPurpose, ClaimsRoute, TicketEnds
from ttr_core.model.gamerules import GameRules
from ttr_core.model.graph import connected_pairs
from ttr_core.model.scores import END
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView
from ttr_core.rules.determinize import determinize
from ttr_core.rules.engine import apply
from ttr_core.rules.tickets import ends_of, map_ticket_ends


@attrs.frozen(eq=False)
class BoardGraph:
    """A board as the heuristic agents use it: locations and routes as numbers."""

    #: Per route: its two ends (location ids), length, colour (card index; -1 gray),
    #: partner (-1 for none) and points when claimed.
    ends: tuple[tuple[int, int], ...]
    length: tuple[int, ...]
    color: tuple[int, ...]
    partner: tuple[int, ...]
    points: tuple[int, ...]
    #: Per location: the routes leaving it, as ``(route, other end)``.
    adjacency: tuple[tuple[tuple[int, int], ...], ...]
    #: Per ticket: its ends as the map gives them (a variant may tell others:
    #: :attr:`Seen.ends`), and the most points it can win.
    ticket_ends: tuple[TicketEnds, ...]
    ticket_points: tuple[int, ...]
    #: Card name → index (display slots show names).
    card_index: Mapping[str, int]
    wild: int
    #: The median, over the map's tickets, of the fewest spaces joining a ticket.
    ticket_spaces: int
    _rules: dict[Any, GameRules] = attrs.field(factory=dict, init=False, repr=False)

    def rules(self, view: PlayerView) -> GameRules:
        """The rule set of the view's game, kept per configuration (resolving the
        options on every decision would cost more than the decision)."""
        key = (len(view.seats), view.variant_names, view.options)
        rules = self._rules.get(key)
        if rules is None:
            options = {variant: dict(values) for variant, values in view.options}
            rules = game_rules(view.board, len(view.seats), view.variant_names, options)
            if len(self._rules) >= 64:
                self._rules.clear()
            self._rules[key] = rules
        return rules

    @classmethod
    def of(cls, board: Board) -> BoardGraph:
        """The graph of ``board``, built once and kept in ``board.derived``."""
        graph = board.derived.get(CACHE_KEY)
        if isinstance(graph, BoardGraph):
            return graph
        loc = board.location_id
        ends = tuple((loc(r.a), loc(r.b)) for r in board.routes)
        adjacency: list[list[tuple[int, int]]] = [[] for _ in board.locations]
        for route, (a, b) in zip(board.routes, ends, strict=True):
            adjacency[a].append((route.id, b))
            adjacency[b].append((route.id, a))
        points = board.rules.route_points
        spaces = shortest_spaces(board)
        joins = sorted(spaces.get((t.a, t.b), 0) for t in board.tickets) or [0]
        ticket_ends = tuple(map_ticket_ends(board, t) for t in board.tickets)
        graph = cls(
            ends=ends,
            length=tuple(r.length for r in board.routes),
            color=tuple(-1 if r.color == GRAY else board.card_index(r.color) for r in board.routes),
            partner=tuple(-1 if r.partner is None else r.partner for r in board.routes),
            points=tuple(points.get(r.length, r.length) for r in board.routes),
            adjacency=tuple(tuple(edges) for edges in adjacency),
            ticket_ends=ticket_ends,
            ticket_points=tuple(max(goal.points for goal in e.goals) for e in ticket_ends),
            card_index={name: i for i, name in enumerate(board.card_names)},
            wild=board.wild,
            ticket_spaces=joins[len(joins) // 2],
        )
        kept = derive(board, CACHE_KEY, lambda: graph)  # one graph, whoever built first
        return kept if isinstance(kept, BoardGraph) else graph


class Seen:
    """One decision as an agent sees it: the view digested once.

    ``owner`` is the owner of each route (-1 free), ``usable`` whether this
    seat could ever claim a route (free, not closed by the double-route rule
    of the game, no longer than its cars), ``root`` the component of each
    location in the graph of the seat's own routes, ``penalty`` what the
    agent has learnt a claim of each route costs beyond its route and
    tickets. ``rng`` is the agent's generator; ``memo`` keeps what the agent
    derives for this decision. ``keep``, the agent's own for one game (or
    none), keeps what one decision worked out for the next ones, each part
    with the inputs it came from, so that a decision whose inputs are equal
    reuses it (the same values: only the time changes); the lists kept are
    shared by those decisions and read only.
    """

    def __init__(
        self,
        view: PlayerView,
        rng: random.Random,
        penalty: dict[int, float],
        tokens: Collection[int] = (),
        waits: dict[int, bool] | None = None,
        keep: dict[str, Any] | None = None,
    ) -> None:
        board = view.board
        g = BoardGraph.of(board)
        if keep is None:
            keep = {}
        if keep.get("graph") is not g:  # kept for another board: start afresh
            keep.clear()
            keep["graph"] = g
        #: What decisions of this game worked out, for the next ones (see above).
        self.keep = keep
        self.view = view
        self.g = g
        self.rng = rng
        self.penalty = penalty
        #: Per route, whether its claim asks the seat again before it completes
        #: (:meth:`claim_waits`), as the agent learnt it this game.
        self.waits: dict[int, bool] = {} if waits is None else waits
        self.memo: dict[str, Any] = {}
        me = self.me = view.viewer
        seat = view.seats[me]
        self.cars = seat.cars
        self.hand = view.hand.counts
        seats = view.seats
        rules: GameRules
        kept: Any = keep.get("rules")
        if (
            kept is not None
            and kept[0] is view.variant_names
            and kept[1] is view.options
            and kept[2] == len(seats)
        ):
            rules = kept[3]
        else:
            rules = g.rules(view)
            keep["rules"] = (view.variant_names, view.options, len(seats), rules)
        both = rules.both_pair_routes_usable
        #: Whether a claim is worth measuring (:meth:`side`): the game has variants
        #: that act when a route is claimed or between turns, whose effects (a
        #: loan, a card won) a bot must see before it claims. A variant that only
        #: adds score lines at the end (attractions, the longest path) is left to
        #: the estimates, which keeps games on those maps fast.
        self.side_effects = bool(rules.after_claim or rules.between_turns)
        #: Per route, what the variants advise claiming it costs beyond the
        #: score sheet (hook ``ttr_agent_route_costs``).
        self.extra = calls.run_agent_route_costs(rules, view)
        #: Whether a variant tells what its actions are for (hook
        #: ``ttr_agent_action_purpose``); without one, only the core's actions count.
        self.advised = bool(rules.agent_action_purpose)
        #: Whether a claim may ask the seat again before it completes (hook
        #: ``ttr_before_claim``): only then is a claim ever put off (:meth:`put_off`).
        self.pipeline = bool(rules.before_claim)
        self._rules = rules
        self._purposes: dict[Action, ActionPurpose | None] = {}
        #: Each ticket's ends in this game (a variant may tell its own:
        #: ``ttr_ticket_ends``), and the most points each can win.
        self.ends = ends_of(rules) if rules.ticket_ends else g.ticket_ends
        self.ticket_points = (
            tuple(max(goal.points for goal in e.goals) for e in self.ends)
            if rules.ticket_ends
            else g.ticket_points
        )
        # Who owns what follows from the seats' routes (the same tuples from view
        # to view while unchanged) and the other owners'.
        held_key = (tuple([(other.seat, other.routes) for other in seats]), view.others)
        kept = keep.get("owner")
        owner: list[int]
        if kept is not None and kept[0] == held_key:
            owner = kept[1]
        else:
            owner = [-1] * len(g.length)
            for other in seats:
                for route in other.routes:
                    owner[route] = other.seat
            for non_seat in view.others:
                for route in non_seat.routes:
                    owner[route] = non_seat.owner
            keep["owner"] = (held_key, owner)
        self.owner = owner
        cars = self.cars
        kept = keep.get("usable")
        if (
            kept is not None
            and kept[0] is owner
            and kept[1] == cars
            and kept[2] == me
            and kept[3] == both
        ):
            usable: list[bool] = kept[4]
        else:
            usable = []
            for route, length in enumerate(g.length):
                partner = g.partner[route]
                ok = owner[route] == -1 and length <= cars
                if ok and partner >= 0:
                    held = owner[partner]
                    ok = held != me and (held == -1 or both)
                usable.append(ok)
            keep["usable"] = (owner, cars, me, both, usable)
        self.usable = usable
        #: The routes this seat's tickets may go through: its own and those the
        #: variants let it use besides (hook ``ttr_ticket_connections``, a station).
        self.joined = frozenset(seat.routes)
        at_tokens = (
            frozenset(r for x in tokens for r, _ in g.adjacency[x] if owner[r] not in (-1, me))
            if tokens
            else frozenset()
        )
        #: Routes of other owners at the seat's tokens that its plan may count on
        #: though :attr:`joined` lacks them (they cost nothing to plan with).
        self.lent: frozenset[int] = frozenset()
        if rules.ticket_connections:
            self.joined |= _ticket_connections(view, rules)
            # The hook may lend a token's route only once it completes a ticket
            # (a station's one route): until then the plan still counts on them.
            self.lent = at_tokens - self.joined
        else:
            # No variant says which routes its tokens join: count every route of
            # another owner at the seat's tokens (BuildsToken) as usable.
            self.joined |= at_tokens
        kept = keep.get("root")
        if kept is not None and kept[0] == self.joined:
            self.root: list[int] = kept[1]
        else:
            # The core's union-find: the component (a root location) of each location.
            ends = g.ends
            self.root = connected_pairs(len(g.adjacency), [ends[r] for r in self.joined])
            keep["root"] = (self.joined, self.root)
        trigger = board.rules.end_trigger_cars
        self.last_turn = view.final_turns >= 0
        self.end_near = self.last_turn or min(s.cars for s in seats) <= trigger + 3

    def purpose(self, action: Action) -> ActionPurpose | None:
        """What a variant's ``action`` is for (hook ``ttr_agent_action_purpose``),
        once per decision; ``None`` for the core's actions and in games whose
        variants tell nothing."""
        if not self.advised or type(action) in _CORE_ACTIONS:
            return None
        if action not in self._purposes:
            self._purposes[action] = calls.run_agent_action_purpose(self._rules, self.view, action)
        return self._purposes[action]

    def claims(self, legal: Sequence[Action], risky: bool = False) -> list[Action]:
        """The claims among ``legal``: the core's (less those :meth:`put_off`, unless
        ``risky``), then the variants' actions that claim a route
        (:class:`~ttr_core.ClaimsRoute`)."""
        core = [a for a in legal if isinstance(a, ClaimRoute)]
        if self.pipeline and not risky:
            core = [a for a in core if not self.put_off(a)]
        claims: list[Action] = list(core)
        if self.advised:
            claims += [a for a in legal if isinstance(self.purpose(a), ClaimsRoute)]
        return claims

    def risky(self, route: int) -> bool:
        """Whether a claim of ``route`` is known to wait for the seat's decision
        (:meth:`claim_waits`) and the variants advise it costs more than
        :data:`RISK` now, with the end not near."""
        return self.waits.get(route, False) and self.extra[route] > RISK and not self.end_near

    def put_off(self, action: ClaimRoute) -> bool:
        """Whether to put the claim off for now (:meth:`risky`): the claim may still
        cost more or fail and cost the turn (a claim that asks again), and the
        variants' advice says drawing first is worth it."""
        route = action.route
        if self.extra[route] > 0:  # advice on a claim that waits is a risk: learn it
            self.claim_waits(action)
        return self.risky(route)

    def claim_waits(self, action: ClaimRoute) -> bool:
        """Whether the claim asks the seat again before it completes (the claim
        pipeline, hook ``ttr_before_claim``): tried on a state dealt from the
        view, once per route and game; ``False`` where no state can be dealt."""
        route = action.route
        known = self.waits.get(route)
        if known is None:
            try:
                world: GameState | None = self.memo.get("dealt")
                if world is None:
                    world = self.memo["dealt"] = determinize(self.view, self.rng.getrandbits(64))
                after = apply(world, action)
                pending = after.pending
                known = (
                    after.owners[route] == -1
                    and pending is not None
                    and pending.player == self.me
                    and pending.kind != "turn"
                )
            except TtrError:
                known = False
            self.waits[route] = known
        return known

    def route(self, action: Action) -> int:
        """The route a claim of :meth:`claims` claims."""
        if isinstance(action, ClaimRoute):
            return action.route
        purpose = self.purpose(action)
        assert isinstance(purpose, ClaimsRoute)  # only claims are asked
        return purpose.route

    def claim_cost(self, action: Action) -> tuple[float, int]:
        """A variant claim's declared extra cost (points) and wild cards spent;
        nothing for the core's."""
        purpose = self.purpose(action)
        if isinstance(purpose, ClaimsRoute):
            return purpose.extra_cost, purpose.wilds
        return 0.0, 0

    def done(self, ticket: int) -> bool:
        """Whether this seat's routes (:attr:`joined`) complete the ticket (join its
        start to a destination)."""
        return self.ends[ticket].scored(self.root)[1] is not None

    def open_tickets(self) -> list[int]:
        """The seat's tickets not completed yet."""
        return [t for t in self.view.tickets if not self.done(t)]

    def side(self, action: Action) -> int:
        """What ``action`` changes on this seat's score sheet beyond its route and
        tickets: the variants' lines the seat may see during play and the points
        variants add during play (a loan's penalty, an attraction touched, a
        merchandise rank, the longest path; a bonus ranked by other seats'
        secrets is not shown, so guesses at them do not count).

        Measured, whatever the variants, by playing the claim on a state dealt
        from the view (:func:`ttr_core.determinize`: what the seat cannot see
        drawn at random from the agent's generator), once per route and
        decision. 0 for a game with no variant acting on a claim or between
        turns (see ``side_effects``), or where no state can be dealt (a
        variant that cannot rebuild its hidden state)."""
        if not self.side_effects or self.memo.get("world", True) is None:
            return 0
        known: dict[object, int] = self.memo.setdefault("side", {})
        # A variant's claim may do more than the core's claim of its route.
        key: object = action.route if isinstance(action, ClaimRoute) else action
        if key in known:
            return known[key]
        world: GameState | None = self.memo.get("world")
        try:
            if world is None:
                world = determinize(self.view, self.rng.getrandbits(64))
                self.memo["before"] = _variant_points(world, self.me)
                self.memo["world"] = world
            after = _variant_points(apply(world, action), self.me)
        except TtrError:
            self.memo["world"] = None
            return 0
        before: int = self.memo["before"]
        known[key] = after - before
        return after - before


def _ticket_connections(view: PlayerView, rules: GameRules) -> frozenset[int]:
    """The routes the variants let the viewing seat use for its tickets besides
    its own, worked out on a state dealt from its view (the hook's answer for a
    seat follows from what its view shows); none if no state can be dealt."""
    try:
        world = determinize(view, 0)
    except TtrError:
        return frozenset()
    return frozenset(calls.run_ticket_connections(rules, world, view.viewer))


def _variant_points(state: GameState, seat: int) -> int:
    """The points of ``seat``'s sheet that are neither its routes nor its tickets,
    as the seat may see them during play."""
    points = state.players[seat].play_points
    for lines in calls.run_score_lines(state.rules, state):
        points += sum(line.points for line in lines[seat] if line.shown != END)
    return points
