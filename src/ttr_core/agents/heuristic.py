"""The heuristic agent: every decision scored from the seat's view (claims
that serve a plan, cards that serve a claim, tickets worth drawing, variant
actions by the purpose their variant tells), the styles differing by a few
weights; and the long-route style, whose route costs the planner repeats
(:func:`_cost_style`). One class that reads best whole (about 600 lines).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from ttr_core.agents.base import _INF, LOSS, fallback
from ttr_core.agents.plans import (
    Plan,
    _costs_only_rose,
    _make_plan,
    _route_costs,
    card_needs,
    make_plan,
)
from ttr_core.agents.seen import Seen
from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
)
from ttr_core.model.declarations import BuildsToken, ClosesRoute, Gains
from ttr_core.model.views import PlayerView

__all__ = ["HeuristicAgent", "LongRouteAgent"]


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
        value = 0.0
        for ticket in kept:
            points = seen.ticket_points[ticket]
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
            value -= 2 * sum(seen.ticket_points[t] for t, path in plan.paths.items() if path)
        for ticket, path in plan.paths.items():
            if path and all(r in (route, partner) for r in path):
                value += 2 * seen.ticket_points[ticket]
            elif route in path or partner in path:
                value += seen.ticket_points[ticket] * g.length[route] / (2 * len(path) + 2)
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
        """A variant's own decision, by what its actions are for: the action that
        gains most, else the route to close that the seat can best spare
        (:meth:`close_value`), else the claim of best gain, else a token worth
        placing; ``None`` (a legal action at random) when the variant tells
        nothing."""
        gains = [(a, p.points) for a in legal if isinstance(p := seen.purpose(a), Gains)]
        if gains:
            return max(gains, key=lambda g: g[1])[0]  # max keeps the first of equal gains
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
            value = 2.0 * sum(seen.ticket_points[t] for t in won)
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
