"""The agent protocol and the simplest agent: an agent chooses one of the
legal actions from its seat's view alone; :class:`RandomAgent` chooses
uniformly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol, runtime_checkable

from ttr_core.model.actions import (
    Action,
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    KeepTickets,
    Pass,
)
from ttr_core.model.views import PlayerView

__all__ = ["CACHE_KEY", "Agent", "AgentFactory", "RandomAgent"]


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


#: A claim that costs more than this (points, beyond its route and tickets) is
#: made only when nothing else serves: a loan, a bonus lost.
LOSS = 1.0


#: A claim that asks the seat again before it completes (a surcharge it may not
#: pay) is put off while the variants advise it costs more than this, until the
#: end is near: the seat draws first (:meth:`Seen.put_off`).
RISK = 2.0


def fallback(legal: Sequence[Action], rng: random.Random) -> Action:
    """A legal action when a style has nothing sensible to do: a card draw if any,
    else a random one (a variant's decision, for instance)."""
    for action in legal:
        if isinstance(action, DrawBlind):
            return action
    return legal[rng.randrange(len(legal))]
