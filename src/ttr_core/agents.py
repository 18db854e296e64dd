"""Bots: the agent protocol and the built-in playing styles (docs/bots.md).

An agent sees what one seat may see and nothing more: each decision it is
given that seat's :class:`~ttr_core.PlayerView`, the legal actions and a
random generator of its own, and returns one of the legal actions. It never
gets a :class:`~ttr_core.GameState` (:mod:`ttr_core.simulation` builds the
view and passes only that).

Built in, by name (:data:`AGENTS`):

* ``random``: uniformly random among the legal actions;
* ``hungry``: destination-hungry, draws and pursues many tickets;
* ``route``: route-focus, builds the cheapest paths for the tickets it holds;
* ``long``: long-route, prefers long routes for their points;
* ``onestep``: one-step, takes the action of best immediate gain.

The four heuristic styles share one planner: the cheapest paths over the
map's graph (the routes a seat owns cost nothing, routes others own or that
the double-route rule closes are cut) joining its tickets, and the cards
those paths still need. They differ in which tickets they keep, when they
draw more, how they weigh routes and what they claim. They name no variant:
what a claim does beyond its route and tickets they measure on a state
dealt from the view (:meth:`Seen.side`), and what a score sheet does not
show at once a variant's plugin may advise (the ``ttr_agent_route_costs``
hook, docs/hooks.md). A variant's own actions they weigh by what its
plugin says each is for (the ``ttr_agent_action_purpose`` hook: a claim of
a route, a token at a location, a route given away). What is
derived from the board alone is kept in ``board.derived`` under
:data:`CACHE_KEY`, so it lives as long as the board.
"""

from __future__ import annotations

import heapq
import operator
import random
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

import attrs

from ttr_core.errors import TtrError, show
from ttr_core.hooks import calls
from ttr_core.hooks.resolve import game_rules
from ttr_core.mapfiles.ticketgen import shortest_spaces
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.board import GRAY, Board, derive
from ttr_core.model.declarations import ActionPurpose, BuildsToken, ClaimsRoute, ClosesRoute
from ttr_core.model.gamerules import GameRules
from ttr_core.model.graph import connected_pairs
from ttr_core.model.scores import END
from ttr_core.model.state import GameState
from ttr_core.model.views import PlayerView
from ttr_core.rules.determinize import determinize
from ttr_core.rules.engine import apply

__all__ = [
    "AGENTS",
    "CACHE_KEY",
    "Agent",
    "AgentFactory",
    "HeuristicAgent",
    "HungryAgent",
    "LongRouteAgent",
    "OneStepAgent",
    "RandomAgent",
    "RouteAgent",
    "UnknownAgentError",
    "agent_names",
    "make_agent",
]


@runtime_checkable
class Agent(Protocol):
    """A player: given one seat's view and the legal actions, choose one of them.

    ``view`` is :func:`ttr_core.player_view` of the seat to decide, ``legal``
    is :func:`ttr_core.legal_actions` of the game (every action is that
    seat's), and ``rng`` a generator of the agent's own, seeded by the
    simulation, for any choice left to chance. The action returned must be
    one of ``legal``. An agent may keep what it likes between calls, but it
    is made afresh for every game.
    """

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The action to take."""
        ...


#: Makes one agent for one seat of one game: an agent class, or any callable
#: returning an agent (picklable, for worker processes: a module-level class
#: or function).
AgentFactory = Callable[[], Agent]

#: The key under which the agents keep what they derive from a board.
CACHE_KEY = "ttr_core.agents"

_INF = float("inf")

#: The core's action classes: no variant is asked what they are for.
_CORE_ACTIONS = frozenset({ClaimRoute, DrawBlind, DrawFaceUp, DrawTickets, KeepTickets, Pass})


class RandomAgent:
    """Uniformly random among the legal actions (as :func:`ttr_core.random_playout`)."""

    name: ClassVar[str] = "random"
    summary: ClassVar[str] = "uniformly random among the legal actions"

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """A legal action chosen uniformly at random."""
        return uniform_choice(legal, rng)


def uniform_choice(legal: Sequence[Action], rng: random.Random) -> Action:
    """``RandomAgent``'s choice: one of ``legal`` uniformly at random (no draw
    from ``rng`` when there is one only). The simulator calls it for a random
    seat without building the view it would not read."""
    return legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]


# ---------------------------------------------------------------------------
# What the agents derive from a board (kept in board.derived)
# ---------------------------------------------------------------------------


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
    #: Per ticket: its ends and points.
    ticket_ends: tuple[tuple[int, int], ...]
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
        graph = cls(
            ends=ends,
            length=tuple(r.length for r in board.routes),
            color=tuple(-1 if r.color == GRAY else board.card_index(r.color) for r in board.routes),
            partner=tuple(-1 if r.partner is None else r.partner for r in board.routes),
            points=tuple(points.get(r.length, r.length) for r in board.routes),
            adjacency=tuple(tuple(edges) for edges in adjacency),
            ticket_ends=tuple((loc(t.a), loc(t.b)) for t in board.tickets),
            ticket_points=tuple(t.points for t in board.tickets),
            card_index={name: i for i, name in enumerate(board.card_names)},
            wild=board.wild,
            ticket_spaces=joins[len(joins) // 2],
        )
        kept = derive(board, CACHE_KEY, lambda: graph)  # one graph, whoever built first
        return kept if isinstance(kept, BoardGraph) else graph


# ---------------------------------------------------------------------------
# What a view tells, in the agents' terms
# ---------------------------------------------------------------------------


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
        """Whether this seat's routes (:attr:`joined`) join the ticket's ends."""
        a, b = self.g.ticket_ends[ticket]
        return self.root[a] == self.root[b]

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


@attrs.frozen
class Plan:
    """Routes to claim for a set of tickets.

    ``routes`` are the routes still to claim (each paired route stands for
    either of its pair), ``spaces`` their total length, ``paths`` the routes
    still to claim for each ticket pursued, ``dropped`` the tickets given up
    (no path left, or over the budget of cars).
    """

    routes: tuple[int, ...]
    spaces: int
    paths: Mapping[int, tuple[int, ...]]
    dropped: tuple[int, ...]

    def has(self, g: BoardGraph, route: int) -> bool:
        """Whether the plan claims ``route`` or the other route of its pair."""
        return route in self.routes or g.partner[route] in self.routes


def shortest_path(seen: Seen, a: int, b: int, cost: Sequence[float]) -> list[int] | None:
    """The routes of the cheapest path from location ``a`` to ``b`` (``cost`` per
    route; ``inf`` cuts it), or ``None`` when none is left."""
    g = seen.g
    adjacency = g.adjacency
    best = [_INF] * len(adjacency)
    via = [-1] * len(adjacency)
    best[a] = 0.0
    heap = [(0.0, a)]
    pop, push, inf = heapq.heappop, heapq.heappush, _INF
    while heap:
        dist, node = pop(heap)
        if node == b:
            break
        if dist > best[node]:
            continue
        for route, other in adjacency[node]:
            step = cost[route]
            if step == inf:
                continue
            total = dist + step
            if total < best[other]:
                best[other] = total
                via[other] = route
                push(heap, (total, other))
    if best[b] == _INF:
        return None
    path = []
    node = b
    while node != a:
        route = via[node]
        path.append(route)
        x, y = g.ends[route]
        node = x if y == node else y
    return path


def make_plan(seen: Seen, tickets: Sequence[int], cost: Sequence[float], budget: int) -> Plan:
    """Greedy paths for ``tickets``, the most valuable first: each ticket's cheapest
    path, given the routes owned and those planned already (which cost nothing);
    a ticket whose path would take the plan over ``budget`` spaces is dropped."""
    return _make_plan(seen, tickets, cost, budget)[0]


def _make_plan(
    seen: Seen, tickets: Sequence[int], cost: Sequence[float], budget: int
) -> tuple[Plan, set[int]]:
    """:func:`make_plan`, and the routes of every path it found (dropped or not)."""
    g = seen.g
    found: set[int] = set()
    costs = list(cost)
    mine = seen.joined | seen.lent
    planned: list[int] = []
    spaces = 0
    paths: dict[int, tuple[int, ...]] = {}
    dropped: list[int] = []
    for ticket in sorted(tickets, key=lambda t: (-g.ticket_points[t], t)):
        a, b = g.ticket_ends[ticket]
        path = shortest_path(seen, a, b, costs)
        if path is None:
            dropped.append(ticket)
            continue
        found.update(path)
        new = [r for r in path if r not in mine and r not in planned]
        extra = sum(g.length[r] for r in new)
        if spaces + extra > budget:
            dropped.append(ticket)
            continue
        for route in new:
            costs[route] = 0.0
            planned.append(route)
        spaces += extra
        paths[ticket] = tuple(r for r in path if r not in mine)
    return Plan(tuple(planned), spaces, paths, tuple(dropped)), found


def _route_costs(
    length: Sequence[int], extra: Sequence[float], penalty: Mapping[int, float], style: str
) -> list[float]:
    """A built-in ``route_cost`` (``style``: whose) of every route, with the very
    arithmetic of that method."""
    costs: list[float] = []
    add = costs.append
    known = penalty.get
    long_routes = style == "long"
    for r, spaces in enumerate(length):
        cost = max(spaces + extra[r] + known(r, 0.0), 0.1)
        if long_routes:
            cost = max(cost - spaces + spaces * (1.3 - 0.1 * spaces), 0.1)
        add(cost)
    return costs


def _costs_only_rose(before: list[float], after: list[float], paths: set[int]) -> bool:
    """Whether no route costs less ``after`` than ``before`` and those of ``paths``
    cost the same."""
    if before == after:
        return True
    if len(before) != len(after) or any(map(operator.lt, after, before)):
        return False
    return all(after[r] == before[r] for r in paths)


def card_needs(seen: Seen, routes: Sequence[int]) -> list[int]:
    """Cards of each colour still missing to claim ``routes`` with the hand held
    (wilds fill gaps; a gray route counts on the colour held most)."""
    g = seen.g
    counts = list(seen.hand[: g.wild])
    wilds = seen.hand[g.wild]
    need = [0] * g.wild
    order = sorted(routes, key=lambda r: (g.color[r] < 0, -g.length[r], r))
    for route in order:
        color = g.color[route]
        if color < 0:
            color = max(range(g.wild), key=lambda c: (counts[c], -need[c], -c))
        missing = g.length[route]
        take = min(counts[color], missing)
        counts[color] -= take
        missing -= take
        take = min(wilds, missing)
        wilds -= take
        need[color] += missing - take
    return need


# ---------------------------------------------------------------------------
# The heuristic styles
# ---------------------------------------------------------------------------

#: A claim that costs more than this (points, beyond its route and tickets) is
#: made only when nothing else serves: a loan, a bonus lost.
LOSS = 1.0
#: A claim that asks the seat again before it completes (a surcharge it may not
#: pay) is put off while the variants advise it costs more than this, until the
#: end is near: the seat draws first (:meth:`Seen.put_off`).
RISK = 2.0


class HeuristicAgent:
    """The planner the four styles share; a subclass sets the style's numbers and
    may override :meth:`route_cost`, :meth:`ticket_value`, :meth:`wants_tickets`
    and :meth:`turn`.

    It knows no variant by name: before a claim it measures what the claim
    does to its own score sheet (:meth:`Seen.side`), remembers a route whose
    claim would cost points beyond its route and tickets (a loan, say), plans
    around it, and claims it only when no other path serves. Every decision
    it cannot make sensibly (a variant's own decision) falls back to a legal
    action: it never raises.
    """

    name: ClassVar[str] = "heuristic"
    summary: ClassVar[str] = "the shared planner"
    #: Share of the cars left that the tickets kept may need.
    budget_share: ClassVar[float] = 0.8
    #: What a space of path costs when choosing tickets (points).
    space_cost: ClassVar[float] = 0.6
    #: How much a ticket that would be dropped costs, times its points.
    drop_cost: ClassVar[float] = 1.0

    def __init__(self) -> None:
        #: What this agent learnt a claim of each route costs beyond its route
        #: and tickets (points, this game).
        self.penalty: dict[int, float] = {}
        #: The locations of the tokens this agent placed (:class:`~ttr_core.BuildsToken`).
        self.tokens: list[int] = []
        #: Per route, whether its claim asks the seat again (:meth:`Seen.claim_waits`).
        self.waits: dict[int, bool] = {}
        #: What one decision worked out for the next ones (:class:`Seen`'s ``keep``).
        self.kept: dict[str, Any] = {}

    def act(self, view: PlayerView, legal: Sequence[Action], rng: random.Random) -> Action:
        """The style's choice, always one of ``legal``."""
        if len(legal) == 1:
            return legal[0]
        kind = view.pending
        chosen: Action | None = None
        seen = Seen(view, rng, self.penalty, self.tokens, self.waits, getattr(self, "kept", None))
        if kind in ("start_tickets", "keep_tickets"):
            chosen = self.keep(seen, legal)
        elif kind == "turn":
            chosen = self.turn(seen, legal)
        elif kind == "second_card":
            chosen = self.draw(seen, legal, self.needs(seen))
        elif seen.advised:
            chosen = self.decide(seen, legal)
        if chosen is None or chosen not in legal:
            return fallback(legal, rng)
        purpose = seen.purpose(chosen)
        if isinstance(purpose, BuildsToken):
            self.tokens.append(purpose.location)
        return chosen

    # -- weights -------------------------------------------------------------

    def route_cost(self, seen: Seen, route: int) -> float:
        """What claiming ``route`` costs in path search: its spaces, what the
        variants advise it costs (hook ``ttr_agent_route_costs``: toll value spent, a loan) and
        what the agent has learnt its claim costs beyond that (so a path
        needing a loan is taken only when no other is left); at least 0.1."""
        cost = seen.g.length[route] + seen.extra[route] + seen.penalty.get(route, 0.0)
        return max(cost, 0.1)

    def costs(self, seen: Seen) -> list[float]:
        """:meth:`route_cost` of every route; 0 for the seat's own, ``inf`` for the
        routes it can never claim."""
        costs: list[float] | None = seen.memo.get("costs")
        if costs is None:
            mine = seen.joined | seen.lent
            usable = seen.usable
            style = _cost_style(self)
            if style is None:  # a route_cost of its own: asked route by route
                costs = [
                    0.0 if r in mine else self.route_cost(seen, r) if usable[r] else _INF
                    for r in range(len(usable))
                ]
            else:
                # A built-in route_cost follows from the advice and the penalties
                # alone: worked out for every route once while they stay equal
                # (the same numbers), then cut to the routes usable now.
                extra, penalty = seen.extra, seen.penalty
                kept = seen.keep.get("costs")
                if (
                    kept is not None
                    and kept[0] == extra
                    and kept[1] == penalty
                    and kept[2] == style
                ):
                    base = kept[3]
                else:
                    base = _route_costs(seen.g.length, extra, penalty, style)
                    seen.keep["costs"] = (extra, dict(penalty), style, base)
                costs = [cost if ok else _INF for cost, ok in zip(base, usable, strict=True)]
                for r in mine:
                    costs[r] = 0.0
            seen.memo["costs"] = costs
        return costs

    def budget(self, seen: Seen) -> int:
        """The spaces the tickets kept may need."""
        return int(seen.cars * self.budget_share)

    def plan(self, seen: Seen) -> Plan:
        """Paths for the seat's open tickets."""
        plan: Plan | None = seen.memo.get("plan")
        if plan is None:
            tickets = seen.open_tickets()
            costs = self.costs(seen)
            budget = self.budget(seen)
            mine = seen.joined | seen.lent
            # make_plan follows from these alone (and the board), and a cheapest
            # path stays the one found, ties broken alike, when no route on it
            # costs more and no route costs less (the search settles the same
            # places first): the plan of the last decision serves for equal
            # tickets, budget and owned routes when its routes found cost the
            # same and no route costs less (routes only ever become unusable).
            kept = seen.keep.get("plan")
            if (
                kept is not None
                and kept[0] == tickets
                and kept[2] == budget
                and kept[3] == mine
                and _costs_only_rose(kept[1], costs, kept[5])
            ):
                plan = kept[4]
                found = kept[5]
            else:
                plan, found = _make_plan(seen, tickets, costs, budget)
            seen.keep["plan"] = (tickets, costs, budget, mine, plan, found)
            seen.memo["plan"] = plan
        return plan

    def learn(self, seen: Seen, action: Action) -> bool:
        """Measure what ``action`` costs beyond its route and tickets; remember a
        loss (and forget the plan made without it). Whether the claim is free
        of such a loss."""
        side = seen.side(action)
        route = seen.route(action)
        partner = seen.g.partner[route]
        if side >= -LOSS:
            seen.penalty.pop(route, None)
            return True
        for known in (route, partner):
            if known >= 0:
                seen.penalty[known] = float(-side)
        seen.memo.pop("costs", None)
        seen.memo.pop("plan", None)
        seen.memo.pop("free", None)
        return False

    def needs(self, seen: Seen) -> list[int]:
        """The cards missing for the plan (or, with none, for the best free route),
        and one more of the colour of each claim put off (:meth:`Seen.risky`)."""
        routes = list(self.plan(seen).routes)
        if not routes:
            target = self.free_target(seen)
            routes = [] if target is None else [target]
        need = card_needs(seen, routes)
        g = seen.g
        for route in routes:
            if seen.risky(route):
                color = g.color[route]
                if color < 0:
                    color = max(range(g.wild), key=lambda c: (seen.hand[c], -c))
                need[color] += 1
        return need

    # -- tickets -------------------------------------------------------------

    def ticket_value(self, seen: Seen, kept: Sequence[int], plan: Plan) -> float:
        """The value of keeping ``kept`` (new tickets), given the plan for them and
        the tickets held."""
        g = seen.g
        value = 0.0
        for ticket in kept:
            points = g.ticket_points[ticket]
            value += points if ticket in plan.paths else -self.drop_cost * points
        return value - self.space_cost * plan.spaces

    def keep(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """The subset of the offer with the best :meth:`ticket_value`."""
        held = seen.open_tickets()
        costs = self.costs(seen)
        budget = self.budget(seen)
        best: tuple[float, int, Action] | None = None
        for action in legal:
            if not isinstance(action, KeepTickets):
                continue
            kept = sorted(action.tickets)
            plan = make_plan(seen, held + kept, costs, budget)
            value = self.ticket_value(seen, kept, plan)
            key = (value, -len(kept))
            if best is None or key > best[:2]:
                best = (value, -len(kept), action)
        return None if best is None else best[2]

    def wants_tickets(self, seen: Seen, plan: Plan) -> bool:
        """Whether to draw tickets now: the plan has nothing left to claim and the
        cars left join a typical ticket twice over."""
        return not plan.routes and seen.cars >= 2 * seen.g.ticket_spaces

    # -- turns ---------------------------------------------------------------

    def turn(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """Claim for the plan, else place a token that joins a ticket the plan
        gave up, else draw tickets when wanted, else claim a route for its own
        sake when the plan is done, else draw cards."""
        claims = seen.claims(legal)
        if seen.last_turn:
            return self.best_claim(seen, claims) or self.draw(seen, legal, [])
        claim = self.plan_claim(seen, claims)
        if claim is not None:
            return claim
        if seen.advised:
            token = self.token(seen, legal)
            if token is not None:
                return token
        plan = self.plan(seen)
        if not seen.end_near and self.wants_tickets(seen, plan):
            draw = next((a for a in legal if isinstance(a, DrawTickets)), None)
            if draw is not None:
                return draw
        if not plan.routes or seen.end_near:
            claim = self.free_claim(seen, claims)
            if claim is not None:
                return claim
        action = self.draw(seen, legal, self.needs(seen))
        if action is None:
            # Nothing to draw: a claim put off is better than none.
            claims = seen.claims(legal, risky=True)
            if claims:
                return self.best_claim(seen, claims)
        return action

    def plan_claim(
        self, seen: Seen, claims: Sequence[Action], only: Sequence[int] = ()
    ) -> Action | None:
        """The plan's longest claimable route (of ``only``, if given), paid as
        :meth:`payment` says. A claim found to cost points beyond its route
        and tickets is made only if the plan, made again knowing it, still
        needs that route."""
        g = seen.g
        tried: set[int] = set()
        while True:
            plan = self.plan(seen)
            routes = {
                r
                for r in map(seen.route, claims)
                if plan.has(g, r) and r not in tried and (not only or r in only)
            }
            if not routes:
                return None
            route = max(routes, key=lambda r: (g.length[r], -r))
            action = self.payment(seen, [a for a in claims if seen.route(a) == route])
            if action is None or self.learn(seen, action) or self.plan(seen).has(g, route):
                return action
            tried.add(route)

    def payment(self, seen: Seen, options: Sequence[Action]) -> Action | None:
        """The payment that spends the fewest wilds and the fewest cards the rest of
        the plan needs; a variant's claim weighs its wilds and its declared extra
        cost (:class:`~ttr_core.ClaimsRoute`)."""
        if not options:
            return None
        g = seen.g
        first = seen.route(options[0])
        rest = [r for r in self.plan(seen).routes if r != first]
        reserve = [0] * g.wild
        for route in rest:
            if g.color[route] >= 0:
                reserve[g.color[route]] += g.length[route]

        def cost(action: Action) -> tuple[float, int]:
            if not isinstance(action, ClaimRoute):
                extra, wilds = seen.claim_cost(action)
                return (3.0 * wilds + extra, 0)
            if action.color is None:
                return (3.0 * action.wilds, 0)
            color = g.card_index[action.color]
            if seen.waits.get(action.route):
                # A claim that asks again may ask more of its colour: keep the most.
                return (3.0 * action.wilds, -seen.hand[color])
            spent = g.length[action.route] - action.wilds
            clash = min(reserve[color], seen.hand[color]) - (seen.hand[color] - spent)
            return (3.0 * action.wilds + max(clash, 0), -seen.hand[color])

        return min(options, key=cost)

    def progress(self, seen: Seen, route: int) -> float:
        """A share of the points of the tickets whose path ``route`` is on (and twice
        their points when it is the last route their path needs)."""
        g = seen.g
        plan = self.plan(seen)
        partner = g.partner[route]
        value = 0.0
        if not plan.has(g, route) and plan.spaces > seen.cars - g.length[route]:
            # Claimed, it leaves too few cars for the plan: its tickets would fail.
            value -= 2 * sum(g.ticket_points[t] for t, path in plan.paths.items() if path)
        for ticket, path in plan.paths.items():
            if path and all(r in (route, partner) for r in path):
                value += 2 * g.ticket_points[ticket]
            elif route in path or partner in path:
                value += g.ticket_points[ticket] * g.length[route] / (2 * len(path) + 2)
        return value

    def estimate(self, seen: Seen, route: int) -> float:
        """The immediate gain of claiming ``route`` as the plan sees it, without
        measuring: its points, less what it is known to cost, and
        :meth:`progress`."""
        g = seen.g
        known = seen.extra[route] + seen.penalty.get(route, 0.0)
        return g.points[route] - known + self.progress(seen, route)

    def best_claim(self, seen: Seen, claims: Sequence[Action], count: int = 4) -> Action | None:
        """The claim of best immediate gain, if any gains something: the ``count``
        best by :meth:`estimate`, then by :meth:`claim_gain` (measured)."""
        routes = sorted(set(map(seen.route, claims)), key=lambda r: (-self.estimate(seen, r), r))
        best: tuple[float, int, Action] | None = None
        for route in routes[:count]:
            action = self.payment(seen, [a for a in claims if seen.route(a) == route])
            if action is None:
                continue
            value = self.claim_gain(seen, action)
            if best is None or (value, -route) > best[:2]:
                best = (value, -route, action)
        if best is None or best[0] <= 0:
            return None
        return best[2]

    def claim_gain(self, seen: Seen, action: Action) -> float:
        """The immediate gain of a claim: the route's points, what it changes on
        the sheet beyond them (measured, :meth:`Seen.side`), its progress on
        open tickets (:meth:`progress`), less the variants' advice (and, for a
        variant's claim, its declared extra cost)."""
        route = seen.route(action)
        return (
            seen.g.points[route]
            + seen.side(action)
            + self.progress(seen, route)
            - seen.extra[route]
            - seen.claim_cost(action)[0]
        )

    # -- variant actions (hook ttr_agent_action_purpose) ----------------------

    def decide(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """A variant's own decision, by what its actions are for: the route to
        close that the seat can best spare (:meth:`close_value`), else the
        claim of best gain, else a token worth placing; ``None`` (a legal
        action at random) when the variant tells nothing."""
        closes = [(a, p.route) for a in legal if isinstance(p := seen.purpose(a), ClosesRoute)]
        if closes:
            return max(closes, key=lambda c: (self.close_value(seen, c[1]), -c[1]))[0]
        claims = seen.claims(legal)
        if claims:
            return self.best_claim(seen, claims) or self.payment(seen, claims)
        return self.token(seen, legal)

    def close_value(self, seen: Seen, route: int) -> float:
        """How well the seat spares ``route`` given away: less its progress on the
        seat's tickets, plus the cards it lacks to claim it (of a pair, it
        keeps the one it can pay), plus the other seats whose routes reach
        its ends (it likely blocks them)."""
        g = seen.g
        color = g.color[route]
        held = max(seen.hand[: g.wild], default=0) if color < 0 else seen.hand[color]
        missing = max(g.length[route] - held - seen.hand[g.wild], 0)
        ends = g.ends[route]
        rivals = sum(
            1
            for other in seen.view.seats
            if other.seat != seen.me and any(x in ends for r in other.routes for x in g.ends[r])
        )
        return -self.progress(seen, route) + 0.5 * missing + rivals

    def token(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """The token (:class:`~ttr_core.BuildsToken`) of best :meth:`token_value`
        less its cost, when that gains something."""
        options = [(a, p) for a in legal if isinstance(p := seen.purpose(a), BuildsToken)]
        if not options or not self.blocked(seen):
            return None
        best: tuple[float, int, Action] | None = None
        for action, purpose in options:
            value = self.token_value(seen, purpose.location) - purpose.cost
            if best is None or (value, -purpose.location) > best[:2]:
                best = (value, -purpose.location, action)
        return best[2] if best is not None and best[0] > 0 else None

    def blocked(self, seen: Seen) -> frozenset[int]:
        """The tickets the plan gave up because of routes other owners hold: a plan
        in which those routes were still free would join them within the budget
        (not those the seat's cars cannot serve whoever owns what)."""
        found: frozenset[int] | None = seen.memo.get("blocked")
        if found is None:
            found = frozenset()
            plan = self.plan(seen)
            if plan.dropped:
                costs = list(self.costs(seen))
                for route, owner in enumerate(seen.owner):
                    if owner not in (-1, seen.me) and seen.g.length[route] <= seen.cars:
                        costs[route] = self.route_cost(seen, route)
                free = make_plan(seen, seen.open_tickets(), costs, self.budget(seen))
                found = frozenset(t for t in plan.dropped if t in free.paths)
            seen.memo["blocked"] = found
        return found

    def token_value(self, seen: Seen, location: int) -> float:
        """What a token at ``location`` gains: the routes of other owners there
        become usable, so the tickets the plan gave up because of such routes
        (:meth:`blocked`) that it then joins within the budget swing from lost
        to won (twice their points), less the spaces the plan grows by."""
        known: dict[int, float] = seen.memo.setdefault("tokens", {})
        if location in known:
            return known[location]
        g = seen.g
        lent = [r for r, _ in g.adjacency[location] if seen.owner[r] not in (-1, seen.me)]
        value = 0.0
        if lent:
            before = self.plan(seen)
            costs = list(self.costs(seen))
            for route in lent:
                costs[route] = 0.0
            joined = seen.joined
            seen.joined = joined | frozenset(lent)
            try:
                after = make_plan(seen, seen.open_tickets(), costs, self.budget(seen))
            finally:
                seen.joined = joined
            blocked = self.blocked(seen)
            won = [t for t in after.paths if t not in before.paths and t in blocked]
            value = 2.0 * sum(g.ticket_points[t] for t in won)
            value -= self.space_cost * max(after.spaces - before.spaces, 0)
        known[location] = value
        return value

    def free_target(self, seen: Seen) -> int | None:
        """The route worth collecting cards for when no ticket needs any: the most
        points per turn it takes (drawing what is missing, then claiming)."""
        if "free" in seen.memo:
            target: int | None = seen.memo["free"]
            return target
        g = seen.g
        hand = seen.hand
        most = max(hand[: g.wild], default=0) + hand[g.wild]
        best: tuple[float, int] | None = None
        for route, ok in enumerate(seen.usable):
            if not ok or seen.penalty.get(route, 0.0) > LOSS:
                continue
            color = g.color[route]
            held = most if color < 0 else hand[color] + hand[g.wild]
            missing = max(g.length[route] - held, 0)
            rate = (self.free_value(seen, route) - seen.extra[route]) / (missing / 2 + 1)
            if best is None or (rate, -route) > (best[0], -best[1]):
                best = (rate, route)
        target = None if best is None or best[0] <= 0 else best[1]
        seen.memo["free"] = target
        return target

    def free_value(self, seen: Seen, route: int) -> float:
        """What a route is worth claimed for its own sake."""
        return float(seen.g.points[route])

    def free_claim(self, seen: Seen, claims: Sequence[Action]) -> Action | None:
        """A claim with no ticket to serve: the free target when it can be paid and
        costs nothing beyond itself, or (near the end) the best claim there is."""
        target = self.free_target(seen)
        partner = seen.g.partner[target] if target is not None else -1
        options = [a for a in claims if seen.route(a) in (target, partner)]
        action = self.payment(seen, options)
        if action is not None and self.learn(seen, action):
            return action
        if seen.end_near:
            return self.best_claim(seen, claims)
        return None

    def draw(self, seen: Seen, legal: Sequence[Action], need: Sequence[int]) -> Action | None:
        """A card draw: the face-up card most needed, else the deck, else any
        face-up card (a wild last)."""
        g = seen.g
        wild_slot: Action | None = None
        best: tuple[int, Action] | None = None
        other: Action | None = None
        blind: Action | None = None
        for action in legal:
            if isinstance(action, DrawBlind):
                blind = action
            elif isinstance(action, DrawFaceUp):
                name = seen.view.display[action.slot]
                card = g.card_index.get(name, -1) if name is not None else -1
                if card == g.wild:
                    wild_slot = wild_slot or action
                elif 0 <= card < len(need) and need[card] > 0:
                    if best is None or need[card] > best[0]:
                        best = (need[card], action)
                elif other is None:
                    other = action
        if best is not None:
            return best[1]
        if blind is not None:
            return blind
        if sum(need) and wild_slot is not None:
            return wild_slot
        return other or wild_slot


def fallback(legal: Sequence[Action], rng: random.Random) -> Action:
    """A legal action when a style has nothing sensible to do: a card draw if any,
    else a random one (a variant's decision, for instance)."""
    for action in legal:
        if isinstance(action, DrawBlind):
            return action
    return legal[rng.randrange(len(legal))]


class HungryAgent(HeuristicAgent):
    """Destination-hungry: keeps every ticket its cars can serve, draws more
    whenever its paths leave room, and pursues them all."""

    name: ClassVar[str] = "hungry"
    summary: ClassVar[str] = "draws and pursues many tickets"
    budget_share: ClassVar[float] = 0.9
    space_cost: ClassVar[float] = 0.25
    drop_cost: ClassVar[float] = 0.8

    def wants_tickets(self, seen: Seen, plan: Plan) -> bool:
        """Whenever the cars the plan leaves join a typical ticket 1.5 times over."""
        return 2 * (seen.cars - plan.spaces) >= 3 * seen.g.ticket_spaces


class RouteAgent(HeuristicAgent):
    """Route-focus: keeps the tickets cheapest to join, claims the cheapest paths
    for them, and draws new tickets only once all are done."""

    name: ClassVar[str] = "route"
    summary: ClassVar[str] = "builds the cheapest paths for its tickets"
    budget_share: ClassVar[float] = 0.7
    space_cost: ClassVar[float] = 0.9
    drop_cost: ClassVar[float] = 1.5


class LongRouteAgent(HeuristicAgent):
    """Long-route: weighs long routes as cheaper per space and claims the longest
    routes as soon as it can pay for one; it keeps its cards for them and claims
    a shorter route its tickets need only when that completes a ticket, its
    hand is full or the end is near."""

    name: ClassVar[str] = "long"
    summary: ClassVar[str] = "prefers long routes for their points"
    budget_share: ClassVar[float] = 0.6
    space_cost: ClassVar[float] = 1.0
    drop_cost: ClassVar[float] = 1.5

    def hand_limit(self, seen: Seen) -> int:
        """Cards in hand from which it claims the short routes its tickets need: a
        third of a seat's cars, at least 8."""
        return max(8, seen.view.board.rules.cars_per_player // 3)

    def route_cost(self, seen: Seen, route: int) -> float:
        """Long routes cost less per space: length × (1.3 − 0.1 × length)."""
        length = seen.g.length[route]
        base = super().route_cost(seen, route)
        return max(base - length + length * (1.3 - 0.1 * length), 0.1)

    def wants_tickets(self, seen: Seen, plan: Plan) -> bool:
        """Only with no plan and half the cars left, enough for three typical tickets."""
        rules = seen.view.board.rules
        return not plan.routes and seen.cars >= max(
            rules.cars_per_player // 2, 3 * seen.g.ticket_spaces
        )

    def free_value(self, seen: Seen, route: int) -> float:
        """Points times length: long routes first."""
        return float(seen.g.points[route] * seen.g.length[route])

    def long_enough(self, seen: Seen) -> int:
        """The shortest route it calls long: one less than the longest it could
        still claim, and at least 3."""
        g = seen.g
        longest = max((g.length[r] for r, ok in enumerate(seen.usable) if ok), default=0)
        return max(3, longest - 1)

    def turn(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """A long route whenever it can pay one (and it costs nothing beyond
        itself); a short one its tickets need only when that completes a ticket
        or the hand holds :meth:`hand_limit` cards; else cards for both."""
        if seen.end_near:
            return super().turn(seen, legal)
        g = seen.g
        claims = seen.claims(legal)
        least = self.long_enough(seen)
        long_routes = {r for r in map(seen.route, claims) if g.length[r] >= least}
        for route in sorted(
            long_routes, key=lambda r: (-g.length[r], not self._planned(seen, r), r)
        ):
            action = self.payment(seen, [a for a in claims if seen.route(a) == route])
            if action is not None and self.learn(seen, action):
                return action
        plan = self.plan(seen)
        needed = [r for r in map(seen.route, claims) if plan.has(g, r)]
        finishing = [r for r in needed if self._finishes(seen, plan, r)]
        if finishing or (needed and sum(seen.hand) >= self.hand_limit(seen)):
            claim = self.plan_claim(seen, claims, only=finishing or needed)
            if claim is not None:
                return claim
        if seen.advised:
            token = self.token(seen, legal)
            if token is not None:
                return token
        plan = self.plan(seen)
        if not plan.routes and self.wants_tickets(seen, plan):
            draw = next((a for a in legal if isinstance(a, DrawTickets)), None)
            if draw is not None:
                return draw
        target = self.free_target(seen)
        routes = [*plan.routes, *([] if target is None else [target])]
        return self.draw(seen, legal, card_needs(seen, routes)) or super().turn(seen, legal)

    def _planned(self, seen: Seen, route: int) -> bool:
        return self.plan(seen).has(seen.g, route)

    @staticmethod
    def _finishes(seen: Seen, plan: Plan, route: int) -> bool:
        partner = seen.g.partner[route]
        return any(
            path and all(r in (route, partner) for r in path) for path in plan.paths.values()
        )


class OneStepAgent(HeuristicAgent):
    """One-step: each turn claims the route of best immediate gain — its points,
    a ticket completed, anything else it changes on the score sheet (measured),
    and progress along a ticket's path — when its tickets need the route or it
    gains enough; else draws the card its plan lacks most."""

    name: ClassVar[str] = "onestep"
    summary: ClassVar[str] = "takes the best immediate gain"
    budget_share: ClassVar[float] = 0.75
    space_cost: ClassVar[float] = 0.6
    drop_cost: ClassVar[float] = 1.2
    #: Least gain for which a route its tickets do not need is claimed (a 3-route).
    least_gain: ClassVar[float] = 4.0

    def turn(self, seen: Seen, legal: Sequence[Action]) -> Action | None:
        """The claim of best immediate gain when its tickets need the route or it
        gains at least :attr:`least_gain`; else as the shared planner."""
        claims = seen.claims(legal)
        action = self.best_claim(seen, claims, count=3)
        if action is not None:
            plan = self.plan(seen)
            wanted = plan.has(seen.g, seen.route(action))
            value = self.claim_gain(seen, action)
            if seen.side(action) >= -LOSS and (wanted or value >= self.least_gain or seen.end_near):
                return action
        return super().turn(seen, legal)


def _cost_style(agent: HeuristicAgent) -> str | None:
    """Whose built-in ``route_cost`` ``agent`` uses (which :func:`_route_costs`
    repeats): ``"plain"`` (the planner's), ``"long"`` (:class:`LongRouteAgent`'s
    over the planner's), or ``None`` for one of its own."""
    if "route_cost" in vars(agent):
        return None
    cls = type(agent)
    method = cls.route_cost
    if method is HeuristicAgent.route_cost:
        return "plain"
    if (
        method is LongRouteAgent.route_cost
        and super(LongRouteAgent, cls).route_cost is HeuristicAgent.route_cost  # type: ignore[misc]
    ):
        return "long"
    return None


#: The built-in agents by name.
AGENTS: Mapping[str, type[RandomAgent] | type[HeuristicAgent]] = {
    "random": RandomAgent,
    "hungry": HungryAgent,
    "route": RouteAgent,
    "long": LongRouteAgent,
    "onestep": OneStepAgent,
}


def agent_names() -> tuple[str, ...]:
    """The names of the built-in agents."""
    return tuple(AGENTS)


class UnknownAgentError(TtrError, LookupError):
    """No built-in agent has the name asked for; the message names the agents."""

    def __init__(self, name: object) -> None:
        self.name = name
        super().__init__(f"no agent {show(name)}; the agents are {', '.join(AGENTS)}")


def make_agent(name: str) -> Agent:
    """A new built-in agent by name (:class:`UnknownAgentError` if there is none)."""
    factory = AGENTS.get(name) if isinstance(name, str) else None
    if factory is None:
        raise UnknownAgentError(name)
    return factory()
