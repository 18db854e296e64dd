"""A reward chosen after a claim (variant ``tp_rewards``): a decision opened in
``ttr_after_claim``.

Claiming a route of :data:`LONG` spaces or more — by a core claim or a tunnel
claim completed after its surcharge — opens a decision of the claiming seat:
:class:`TakePoints` (:data:`POINTS` points at once) or :class:`TakeCard` (the
top card of the deck, when the deck or the discard pile holds one). The turn
waits for the choice; settling it ends the turn (``ttr_core.end_turn``), so
the final-round trigger and the next seat follow the choice. Pennsylvania's
stock shares are the printed game with this shape.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import attrs

from ttr_core import (
    Action,
    ActionTemplate,
    Gains,
    GameState,
    IllegalAction,
    PlayerView,
    effects,
    end_turn,
    hookimpl,
)

NAME = "tp_rewards"
#: The decision's kind.
CHOOSE = f"{NAME}.choose"
#: Routes of this many spaces or more earn a reward.
LONG = 3
#: The points reward.
POINTS = 2
#: What the card reward is worth to the bots, in points.
CARD_WORTH = 1.5


@attrs.frozen
class TakePoints(Action):
    """Take the points reward."""


@attrs.frozen
class TakeCard(Action):
    """Take the top card of the deck as the reward."""


def choosing(state: GameState) -> int | None:
    """The route whose reward the deciding seat chooses, or ``None``."""
    pending = state.pending
    if pending is None or pending.kind != CHOOSE:
        return None
    route: int = pending.data
    return route


def earns(state: GameState, route: int) -> bool:
    """Whether claiming ``route`` earns a reward."""
    return state.board.routes[route].length >= LONG


class Rewards:
    """A reward chosen after a long claim (see the module)."""

    description = "rewards: a claim of 3+ spaces earns 2 points or a card, the claimer's choice"

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {f"{NAME}.points": TakePoints, f"{NAME}.card": TakeCard}

    @hookimpl
    def ttr_action_space(self) -> Sequence[ActionTemplate]:
        return [ActionTemplate(TakePoints, {}), ActionTemplate(TakeCard, {})]

    @hookimpl
    def ttr_after_claim(self, state: GameState, player: int, route: int) -> GameState | None:
        if not state.is_seat(player) or not earns(state, route):
            return None
        return effects.set_pending(state, CHOOSE, player, data=route)

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        if choosing(state) is None:
            return None
        assert state.pending is not None
        seat = state.pending.player
        found: list[Action] = [TakePoints(seat)]
        if state.deck or any(state.discard):
            found.append(TakeCard(seat))
        return found

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if not isinstance(action, TakePoints | TakeCard):
            return None
        if choosing(state) is None:
            raise IllegalAction(f"{NAME}.no_reward", "no reward waits to be chosen")
        if action not in (self.ttr_extra_actions(state) or ()):
            raise IllegalAction(f"{NAME}.no_card", "no card is left to take as a reward")
        if isinstance(action, TakePoints):
            state = effects.add_points(state, action.player, POINTS)
        else:
            state = effects.draw_cards(state, action.player, 1)
        return end_turn(state)

    @hookimpl
    def ttr_view_types(self) -> Mapping[str, Any]:
        return {f"{NAME}.route": int | None}

    @hookimpl
    def ttr_player_view(self, state: GameState) -> Mapping[str, Any]:
        return {f"{NAME}.route": choosing(state)}

    @hookimpl
    def ttr_determinize(self, state: GameState, view: PlayerView) -> GameState | None:
        """A reward that waits gets its route back from the view (public)."""
        pending = state.pending
        if pending is None or pending.kind != CHOOSE:
            return None
        route = view.variants[f"{NAME}.route"]
        return attrs.evolve(state, pending=attrs.evolve(pending, data=route))

    @hookimpl
    def ttr_agent_action_purpose(self, view: PlayerView, action: Action) -> Gains | None:
        """For bots: the points, or a card, worth a point and a half to them."""
        if isinstance(action, TakePoints):
            return Gains(POINTS)
        if isinstance(action, TakeCard):
            return Gains(CARD_WORTH)
        return None

    @hookimpl
    def ttr_check_transition(
        self, before: GameState, action: Action, after: GameState
    ) -> Iterator[str]:
        """The rule across a step: a claim of a free long route by a seat waits for
        that seat's reward, with the turn not over; a reward ends the turn."""
        claimed = [
            r
            for r, (old, new) in enumerate(zip(before.owners, after.owners, strict=True))
            if old != new and after.is_seat(new)
        ]
        for route in claimed:
            waits = choosing(after) == route and after.turn == before.turn
            if earns(before, route) and after.termination is None and not waits:
                yield (
                    f"{NAME}: the claim of route {route} does not wait for the reward "
                    f"(pending {after.pending!r}, turn {before.turn} -> {after.turn})"
                )
        if isinstance(action, TakePoints | TakeCard) and after.turn != before.turn + 1:
            yield f"{NAME}: the reward did not end the turn ({before.turn} -> {after.turn})"
