"""The claim pipeline (docs/hooks.md): ``ttr_before_claim`` makes a claim wait for a
decision of the claiming seat, ``effects.complete_claim`` / ``effects.cancel_claim``
finish it with the core's bookkeeping, ``effects.claim_error`` is the core's check.

The test variant is tunnel-like: a claim of a marked route asks the seat to pay
0 to 2 extra cards of the claim's colour (wilds may stand in), by seeded chance;
the seat pays ("pay") or gives up ("give up")."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    GameState,
    IllegalAction,
    PluginError,
    Reason,
    effects,
    hookimpl,
)
from ttr_core.testing import check_rules

from .helpers import NY_CARDS, card_total, new_started

NAME = "tunnelish"
WAIT = f"{NAME}.pay"


@attrs.frozen
class Pay(Action):
    """Pay the extra cards asked for, ``wilds`` of them as wilds, and claim."""

    wilds: int


@attrs.frozen
class GiveUp(Action):
    """Give the claim up: the turn ends, nothing is claimed."""


@attrs.frozen
class Waiting:
    """A claim that waits: the claim and the extra cards it asks for."""

    claim: ClaimRoute
    extra: int


def seeded_extra(state: GameState, claim: ClaimRoute) -> int:
    """0 to 2 extra cards, by the game's seed, turn and route (chance a replay repeats)."""
    return (state.seed + state.turn * 7 + claim.route) % 3


class Tunnelish:
    """The test variant; ``marked`` and ``extra`` may be changed by a test."""

    def __init__(self) -> None:
        self.marked: Callable[[int], bool] = lambda route: route % 3 == 0
        self.extra: Callable[[GameState, ClaimRoute], int] = seeded_extra
        self.waits = self.paid = self.given_up = 0

    @hookimpl
    def ttr_action_types(self) -> Mapping[str, type[Action]]:
        return {f"{NAME}.pay_more": Pay, f"{NAME}.give_up": GiveUp}

    @hookimpl
    def ttr_variant_state_types(self) -> Mapping[str, Any]:
        return {WAIT: Waiting}

    @hookimpl
    def ttr_before_claim(self, state: GameState, action: ClaimRoute) -> GameState | None:
        if not self.marked(action.route):
            return None
        extra = self.extra(state, action)
        if extra == 0:
            return None
        self.waits += 1
        return effects.set_pending(state, WAIT, action.player, data=Waiting(action, extra))

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> list[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != WAIT:
            return None
        wait = pending.data
        seat = pending.player
        found: list[Action] = [GiveUp(seat)]
        for wilds in range(wait.extra + 1):
            if effects.claim_error(state, wait.claim) is None and holds(state, wait, wilds):
                found.append(Pay(seat, wilds))
        return found

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        pending = state.pending
        if pending is None or pending.kind != WAIT:
            return None
        wait = pending.data
        if isinstance(action, GiveUp):
            self.given_up += 1
            return effects.cancel_claim(state, wait.claim)
        if isinstance(action, Pay):
            if action not in (self.ttr_extra_actions(state) or ()):
                raise IllegalAction(Reason.BAD_PAYMENT, f"{action!r} does not pay {wait.extra}")
            self.paid += 1
            return effects.complete_claim(state, wait.claim, extra_paid(state, wait, action.wilds))
        return None


def extra_paid(state: GameState, wait: Waiting, wilds: int) -> dict[str, int]:
    """The extra cards: ``wilds`` wilds, the rest in the claim's colour (wilds if none)."""
    wild = state.board.card_names[state.board.wild]
    colour = wait.claim.color or wild
    paid = {wild: wilds}
    paid[colour] = paid.get(colour, 0) + wait.extra - wilds
    return paid


def holds(state: GameState, wait: Waiting, wilds: int) -> bool:
    """Whether the claiming seat holds the claim's cards and these extra ones."""
    claim = wait.claim
    board = state.board
    hand = state.players[claim.player].hand
    need = {board.card_names[board.wild]: claim.wilds}
    if claim.color is not None:
        need[claim.color] = board.routes[claim.route].length - claim.wilds
    for name, n in extra_paid(state, wait, wilds).items():
        need[name] = need.get(name, 0) + n
    return all(hand[name] >= n for name, n in need.items())


@pytest.fixture
def plugin() -> Iterator[Tunnelish]:
    variant = Tunnelish()
    ttr_core.register_variant(NAME, variant)
    yield variant
    ttr_core.unregister_variant(NAME)


def claims(state: GameState) -> Sequence[ClaimRoute]:
    return [a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute)]


def with_claim(plugin: Tunnelish, wilds_needed: int = 0) -> tuple[GameState, ClaimRoute]:
    """A started game where seat to play may claim some route and still has
    ``wilds_needed`` wilds to spare, found by playing draws with the variant off."""
    plugin.marked = lambda route: False
    for seed in range(200):
        state = new_started(seed=seed, variants=[NAME])
        for _ in range(12):
            for claim in claims(state):
                hand = state.players[claim.player].hand
                if (
                    hand["wild"] - claim.wilds >= wilds_needed
                    and not state.players[claim.player].known
                ):
                    plugin.marked = lambda route: True
                    return state, claim
            draws = [a for a in ttr_core.legal_actions(state) if type(a).__name__ == "DrawBlind"]
            if not draws:
                break
            state = ttr_core.apply(state, draws[0])
    raise AssertionError("no game with a claim found")


# -- waiting, completing, cancelling -------------------------------------------------------


def test_a_marked_claim_waits_for_the_claiming_seat(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    plugin.extra = lambda s, c: 2
    waiting = ttr_core.apply(state, claim)
    assert waiting.pending is not None
    assert (waiting.pending.kind, waiting.pending.player) == (WAIT, claim.player)
    assert waiting.pending.data == Waiting(claim, 2)
    # nothing claimed or paid yet; the action counted
    assert waiting.owners == state.owners and waiting.players == state.players
    assert waiting.discard == state.discard and waiting.turn == state.turn
    assert waiting.ply == state.ply + 1
    legal = ttr_core.legal_actions(waiting)
    assert GiveUp(claim.player) in legal
    assert all(isinstance(a, Pay | GiveUp) for a in legal)  # only the variant's answers


def test_complete_claim_is_the_cores_bookkeeping_plus_the_extra_cards(
    plugin: Tunnelish,
) -> None:
    state, claim = with_claim(plugin, wilds_needed=1)
    plugin.extra = lambda s, c: 0  # the hook lets the claim through: a plain claim
    plain = ttr_core.apply(state, claim)
    plugin.extra = lambda s, c: 1
    waiting = ttr_core.apply(state, claim)
    done = ttr_core.apply(waiting, Pay(claim.player, 1))  # one extra wild
    seat = claim.player
    wild = state.board.wild
    counts = list(plain.players[seat].hand.counts)
    counts[wild] -= 1
    pile = list(plain.discard)
    pile[wild] += 1
    player = attrs.evolve(
        plain.players[seat], hand=attrs.evolve(plain.players[seat].hand, counts=tuple(counts))
    )
    players = tuple(player if i == seat else p for i, p in enumerate(plain.players))
    expected = attrs.evolve(plain, players=players, discard=tuple(pile), ply=plain.ply + 1)
    assert done == expected
    assert done.pending is not None and done.pending.player != seat  # the turn ended
    assert card_total(done) == NY_CARDS


def test_cancel_claim_leaves_the_route_free_and_ends_the_turn(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    plugin.extra = lambda s, c: 2
    waiting = ttr_core.apply(state, claim)
    gave_up = ttr_core.apply(waiting, GiveUp(claim.player))
    assert gave_up.owners == state.owners  # the route is free
    assert gave_up.players == state.players  # cards and cars kept
    assert gave_up.discard == state.discard and gave_up.deck == state.deck
    assert gave_up.turn == state.turn + 1 and gave_up.ply == state.ply + 2
    assert gave_up.pending is not None and gave_up.pending.kind == "turn"
    assert gave_up.pending.player == (claim.player + 1) % state.num_players
    assert claim.route in {c.route for c in claims(_as_seat(gave_up, claim.player))}


def _as_seat(state: GameState, seat: int) -> GameState:
    """``state`` with ``seat``'s turn (to list what it may claim)."""
    return effects.set_pending(state, "turn", seat)


def test_finishing_a_claim_outside_its_wait_is_refused(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    with pytest.raises(PluginError, match="variant decision"):
        effects.complete_claim(state, claim)  # no claim waits: it is a core turn
    with pytest.raises(PluginError, match="variant decision"):
        effects.cancel_claim(state, claim)
    plugin.extra = lambda s, c: 1
    waiting = ttr_core.apply(state, claim)
    with pytest.raises(PluginError, match="ClaimRoute"):
        effects.complete_claim(waiting, Pay(claim.player, 0))  # type: ignore[arg-type]
    taken = attrs.evolve(
        waiting,
        owners=tuple(
            1 - claim.player if r == claim.route else o for r, o in enumerate(waiting.owners)
        ),
    )
    with pytest.raises(IllegalAction) as err:
        effects.complete_claim(taken, claim)
    assert err.value.reason == Reason.ROUTE_CLAIMED
    with pytest.raises(IllegalAction) as err:
        effects.complete_claim(waiting, claim, {"wild": 99})
    assert err.value.reason == Reason.CARDS_DO_NOT_PAY


def test_claim_error_is_the_check_apply_makes(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    assert effects.claim_error(state, claim) is None
    too_many = attrs.evolve(claim, wilds=claim.wilds + 50)
    error = effects.claim_error(state, too_many)
    assert error is not None and error.reason == Reason.BAD_PAYMENT
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, too_many)
    assert err.value.reason == error.reason and str(err.value) == str(error)
    with pytest.raises(PluginError):
        effects.claim_error(state, "claim")  # type: ignore[arg-type]


def test_the_hook_is_not_asked_of_a_claim_the_core_refuses(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    asked: list[ClaimRoute] = []

    def extra(s: GameState, c: ClaimRoute) -> int:
        asked.append(c)
        return 1

    plugin.extra = extra
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, attrs.evolve(claim, wilds=claim.wilds + 50))
    assert asked == []


# -- the hook's answers are checked -----------------------------------------------------


class Rogue:
    """A before-claim hook that answers with ``answer(state, action)``."""

    def __init__(self, answer: Callable[[GameState, ClaimRoute], Any]) -> None:
        self.answer = answer

    @hookimpl
    def ttr_before_claim(self, state: GameState, action: ClaimRoute) -> Any:
        return self.answer(state, action)


@pytest.mark.parametrize(
    ("answer", "words"),
    [
        (lambda s, a: 42, "must return a GameState"),
        (lambda s, a: s, "does not wait"),  # waits for the core's turn
        (lambda s, a: effects.set_pending(s, "rogue.x", 1 - a.player), "does not wait"),
        (
            lambda s, a: effects.set_pending(
                effects.claim_route(s, a.route, a.player), "rogue.x", a.player
            ),
            "claimed a route",
        ),
    ],
)
def test_a_wrong_answer_names_the_variant(
    plugin: Tunnelish, answer: Callable[[GameState, ClaimRoute], Any], words: str
) -> None:
    state, claim = with_claim(plugin)
    ttr_core.register_variant("rogue", Rogue(answer))
    try:
        rogue = new_started(seed=state.seed, variants=["rogue"])
        rogue = attrs.evolve(state, rules=rogue.rules)
        with pytest.raises(PluginError) as err:
            ttr_core.apply(rogue, claim)
        assert err.value.variant == "rogue" and err.value.hook == "ttr_before_claim"
        assert words in str(err.value)
    finally:
        ttr_core.unregister_variant("rogue")


def test_the_hook_costs_nothing_when_no_plugin_implements_it() -> None:
    assert new_started().rules.before_claim == ()
    assert new_started(map="nederland").rules.before_claim == ()


# -- random games ---------------------------------------------------------------------


def test_random_games_with_the_variant_keep_every_invariant(plugin: Tunnelish) -> None:
    check_rules("newyork", [NAME], examples=60)
    assert plugin.waits and plugin.paid and plugin.given_up


def test_random_games_on_a_bigger_map(plugin: Tunnelish) -> None:
    check_rules("usa", [NAME], players=3, examples=5)
    assert plugin.waits and plugin.paid


def test_a_game_waiting_for_a_claim_is_saved_and_loaded(plugin: Tunnelish) -> None:
    state, claim = with_claim(plugin)
    plugin.extra = lambda s, c: 2
    waiting = ttr_core.apply(state, claim)
    loaded: GameState = ttr_core.from_json(ttr_core.to_json(waiting), GameState)
    assert loaded == waiting
    gave_up = ttr_core.apply(loaded, GiveUp(claim.player))
    assert gave_up == ttr_core.apply(waiting, GiveUp(claim.player))
