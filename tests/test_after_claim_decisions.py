"""A decision opened after a claim (``ttr_after_claim``): the turn waits for it, and
anything else a hook does with the pending decision is refused by name, never
dropped (issue 32, finding 2: "after apply, state.pending is the next seat's
turn, no error, even in strict mode")."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import ClaimRoute, GameState, Pending, PluginError, effects, hookimpl
from ttr_core.agents import make_agent

from . import thirdparty
from .helpers import started, with_hand
from .test_hook_results import Plugin
from .thirdparty.rewards import CHOOSE, POINTS, TakeCard, TakePoints
from .thirdparty.tunnels import PayTunnel, is_tunnel


@pytest.fixture(autouse=True)
def package() -> Iterator[None]:
    thirdparty.register()
    yield
    thirdparty.unregister()


@pytest.fixture
def install() -> Iterator[Callable[..., None]]:
    names: list[str] = []

    def register(name: str, hook: str, function: Callable[..., Any]) -> None:
        ttr_core.register_variant(name, Plugin(hook, function))
        names.append(name)

    yield register
    for name in names:
        ttr_core.unregister_variant(name)


def game(variants: tuple[str, ...] = ("tp_rewards",), players: int = 2) -> GameState:
    return started(ttr_core.new_game(thirdparty.MAP, players, seed=3, variants=variants))


def long_route(state: GameState, tunnel: bool = False) -> int:
    """A free coloured route of 3+ spaces (a tunnel or not)."""
    for route in state.board.routes:
        if (
            route.length >= 3
            and route.color != "gray"
            and is_tunnel(state.board, route.id) == tunnel
            and state.owners[route.id] == -1
        ):
            return route.id
    raise LookupError("no such route")


def claim_long(state: GameState, tunnel: bool = False) -> tuple[GameState, ClaimRoute]:
    seat = state.current_player
    route = state.board.routes[long_route(state, tunnel)]
    state = with_hand(state, seat, **{route.color: route.length + 3, "wild": 3})
    return state, ClaimRoute(seat, route.id, route.color, 0)


def test_the_turn_waits_for_a_decision_opened_after_a_core_claim() -> None:
    before, action = claim_long(game())
    after = ttr_core.apply(before, action)
    seat = action.player
    assert after.owners[action.route] == seat
    assert after.pending == Pending(CHOOSE, seat, data=action.route)
    assert after.turn == before.turn and after.current_player == seat
    assert ttr_core.legal_actions(after) == (TakePoints(seat), TakeCard(seat))
    settled = ttr_core.apply(after, TakePoints(seat))
    assert settled.players[seat].score == after.players[seat].score + POINTS
    assert settled.turn == before.turn + 1
    assert settled.pending == Pending("turn", 1 - seat)


def test_the_card_reward_also_ends_the_turn() -> None:
    before, action = claim_long(game())
    after = ttr_core.apply(before, action)
    settled = ttr_core.apply(after, TakeCard(action.player))
    assert settled.players[action.player].hand.total == after.players[action.player].hand.total + 1
    assert settled.turn == before.turn + 1 and settled.current_player != action.player


def test_a_short_claim_opens_nothing_and_ends_the_turn() -> None:
    state = game()
    seat = state.current_player
    route = next(r for r in state.board.routes if r.length < 3 and r.color != "gray")
    state = with_hand(state, seat, **{route.color: route.length})
    after = ttr_core.apply(state, ClaimRoute(seat, route.id, route.color, 0))
    assert after.turn == state.turn + 1 and after.pending == Pending("turn", 1 - seat)


def test_a_claim_completed_after_a_tunnel_surcharge_waits_too() -> None:
    before, action = claim_long(game(("tp_tunnels", "tp_rewards")), tunnel=True)
    waiting = ttr_core.apply(before, action)
    assert waiting.pending is not None and waiting.pending.kind == "tp_tunnels.pay"
    pay = next(a for a in ttr_core.legal_actions(waiting) if isinstance(a, PayTunnel))
    after = ttr_core.apply(waiting, pay)
    assert after.owners[action.route] == action.player
    assert after.pending == Pending(CHOOSE, action.player, data=action.route)
    assert after.turn == before.turn
    settled = ttr_core.apply(after, TakePoints(action.player))
    assert settled.turn == before.turn + 1


def test_the_final_round_starts_once_the_decision_is_settled() -> None:
    before, action = claim_long(game())
    seat = action.player
    length = before.board.routes[action.route].length
    player = attrs.evolve(before.players[seat], cars=length + 1)
    players = tuple(player if s == seat else p for s, p in enumerate(before.players))
    before = attrs.evolve(before, players=players)
    after = ttr_core.apply(before, action)
    assert after.final_turns == -1  # the turn is not over yet
    settled = ttr_core.apply(after, TakePoints(seat))
    assert settled.final_turns == before.num_players


def test_the_playout_waits_as_the_pure_api_does() -> None:
    before, action = claim_long(game())
    play = ttr_core.Playout(before)
    play.apply(action)
    assert play.snapshot() == ttr_core.apply(before, action)
    assert play.legal_actions() == ttr_core.legal_actions(play.snapshot())
    play.apply(TakePoints(action.player))
    pure = ttr_core.apply(ttr_core.apply(before, action), TakePoints(action.player))
    assert play.snapshot() == pure


# -- refused, by name -------------------------------------------------------------------------


def opens(kind: str, seat: Callable[[GameState, int], int]) -> Callable[..., GameState]:
    def after_claim(state: GameState, player: int, route: int) -> GameState:
        return effects.set_pending(state, kind, seat(state, player))

    return after_claim


def refused(variants: tuple[str, ...], name: str) -> str:
    before, action = claim_long(game(variants))
    with pytest.raises(PluginError) as err:
        ttr_core.apply(before, action)
    assert (err.value.variant, err.value.hook) == (name, "ttr_after_claim")
    return str(err.value)


def test_a_decision_for_another_seat_is_refused(install: Any) -> None:
    install("other", "ttr_after_claim", opens("other.choose", lambda s, p: 1 - p))
    message = refused(("other",), "other")
    assert "seat deciding the claim" in message and "'other.choose'" in message


def test_handing_the_turn_on_is_refused(install: Any) -> None:
    install("skip", "ttr_after_claim", opens("turn", lambda s, p: 1 - p))
    assert "open a variant decision" in refused(("skip",), "skip")


def test_a_core_kind_for_the_same_seat_is_refused(install: Any) -> None:
    def second_card(state: GameState, player: int, route: int) -> GameState:
        return attrs.evolve(state, pending=Pending("second_card", player))

    install("again", "ttr_after_claim", second_card)
    refused(("again",), "again")


def test_replacing_another_variants_decision_is_refused(install: Any) -> None:
    install("greedy", "ttr_after_claim", opens("greedy.choose", lambda s, p: p))
    message = refused(("tp_rewards", "greedy"), "greedy")
    assert "replaced the decision variant 'tp_rewards' opened" in message


def test_a_decision_after_a_claim_route_claim_is_refused() -> None:
    """A variant's own claim (``effects.claim_route``) cannot wait: the variant
    making it would end the turn without the decision."""
    ttr_core.register_variant("grab", Grabs())
    try:
        before, action = claim_long(game(("tp_rewards", "grab")))
        with pytest.raises(PluginError) as err:
            ttr_core.apply(before, Grab(action.player, action.route))
        assert err.value.variant == "grab" and "effects.claim_route" in str(err.value)
    finally:
        ttr_core.unregister_variant("grab")


def test_the_case_of_the_issue_is_no_longer_silent(install: Any) -> None:
    """The issue's plugin: ``ttr_after_claim`` returns ``set_pending(state, "x.choose",
    player)``; after ``apply`` the state waits for that decision (strict or not)."""
    install("x", "ttr_after_claim", opens("x.choose", lambda s, p: p))
    before, action = claim_long(game(("x",)))
    for strict in (True, False):
        previous = ttr_core.set_strict(strict)
        try:
            after = ttr_core.apply(before, action)
        finally:
            ttr_core.set_strict(previous)
        assert after.pending is not None and after.pending.kind == "x.choose"
        assert after.turn == before.turn


@attrs.frozen
class Grab(ttr_core.Action):
    """Claim a route through ``effects.claim_route`` (a test variant's own claim)."""

    route: int


class Grabs:
    @hookimpl
    def ttr_action_types(self) -> dict[str, type[ttr_core.Action]]:
        return {"grab.grab": Grab}

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: ttr_core.Action) -> GameState | None:
        if type(action) is not Grab:
            return None
        route = state.board.routes[action.route]
        paid = {route.color: route.length}
        return ttr_core.end_turn(effects.claim_route(state, action.route, action.player, paid))


@pytest.mark.parametrize("bot", ["hungry", "route", "long", "onestep"])
def test_the_bots_take_the_reward_that_gains_most(bot: str) -> None:
    """``Gains(points)``: of the rewards, every heuristic style takes the one the
    variant says gains most (2 points over a card worth 1.5), in either order."""
    before, action = claim_long(game())
    after = ttr_core.apply(before, action)
    view = ttr_core.player_view(after, action.player)
    agent = make_agent(bot)
    legal = ttr_core.legal_actions(after)
    for order in (legal, legal[::-1]):
        assert agent.act(view, order, random.Random(0)) == TakePoints(action.player)
