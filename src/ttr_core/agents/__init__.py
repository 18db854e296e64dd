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

from ttr_core.agents.base import CACHE_KEY, Agent, AgentFactory, RandomAgent
from ttr_core.agents.heuristic import HeuristicAgent, LongRouteAgent
from ttr_core.agents.styles import (
    AGENTS,
    HungryAgent,
    OneStepAgent,
    RouteAgent,
    UnknownAgentError,
    agent_names,
    make_agent,
)

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
