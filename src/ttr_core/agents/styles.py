"""The built-in styles (``hungry``, ``route``, ``long``, ``onestep``) and an agent by name."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from ttr_core.agents.base import LOSS, Agent, RandomAgent
from ttr_core.agents.heuristic import HeuristicAgent, LongRouteAgent
from ttr_core.agents.plans import Plan
from ttr_core.agents.seen import Seen
from ttr_core.errors import TtrError, show
from ttr_core.model.actions import (
    Action,
)

__all__ = [
    "AGENTS",
    "HungryAgent",
    "OneStepAgent",
    "RouteAgent",
    "UnknownAgentError",
    "agent_names",
    "make_agent",
]


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
