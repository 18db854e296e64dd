"""Europe's tunnels (plugin ``tunnels``, rules ../shared/rules/europe.md "Tunnels",
engine decisions EU1, EU2, EU5): a tunnel claim reveals cards and waits for the
seat to pay the surcharge or give up."""

from __future__ import annotations

import random
import types
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

import attrs
import pytest
from ttr_core_plugins import tunnels
from ttr_core_plugins.tunnels import PAY, GiveUpTunnel, PayTunnel, TunnelWait

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    ClaimsRoute,
    GameState,
    Hand,
    IllegalAction,
    PlayerView,
    Reason,
    effects,
    hookimpl,
)
from ttr_core.agents import make_agent
from ttr_core.testing import check_rules, play_checked

from .helpers import route_id, set_deck, set_display, started, with_hand

VARIANTS = ["tunnels", "ferries"]
EUROPE_CARDS = 110


def game(seed: int = 1, players: int = 2, reveal: int | None = None) -> GameState:
    options = None if reveal is None else {"tunnels": {"reveal": reveal}}
    return started(
        ttr_core.new_game("europe", players, seed=seed, variants=VARIANTS, options=options)
    )


def ready(state: GameState, deck: tuple[str, ...] = (), **hand: int) -> GameState:
    """Seat 0 (to play) holds exactly ``hand``; the deck starts with ``deck``."""
    assert state.pending is not None and state.pending.player == 0
    return set_deck(with_hand(state, 0, **hand), *deck)


def marseille_zurich(state: GameState) -> int:
    return route_id(state, "Marseille", "Zürich", "purple")  # a purple tunnel of 2


def paris_zurich(state: GameState) -> int:
    return route_id(state, "Paris", "Zürich")  # a gray tunnel of 3


def wait_of(state: GameState) -> TunnelWait:
    wait = tunnels.waiting(state)
    assert wait is not None
    return wait


def card_total(state: GameState) -> int:
    return (
        len(state.deck)
        + sum(c is not None for c in state.display)
        + sum(state.discard)
        + sum(p.hand.total for p in state.players)
    )


def counts(state: GameState, **cards: int) -> tuple[int, ...]:
    return tuple(cards.get(name, 0) for name in state.board.card_names)


# -- the surcharge ----------------------------------------------------------------------


def unseen(state: ttr_core.GameState) -> list[ttr_core.PlayerState]:
    """The seats less what every player knows of their hands (cards shown)."""
    return [attrs.evolve(player, known=()) for player in state.players]


def test_tunnel_surcharge_for_colour() -> None:
    state = ready(game(), ("purple", "wild", "blue"), purple=4, wild=1)
    route = marseille_zurich(state)
    claim = ClaimRoute(0, route, "purple", 0)
    waiting = ttr_core.apply(state, claim)
    assert waiting.pending is not None and waiting.pending.kind == PAY
    assert waiting.pending.data == TunnelWait(claim, ("purple", "wild", "blue"), 2)
    assert waiting.owners == state.owners and unseen(waiting) == unseen(state)
    assert waiting.turn == state.turn
    # The claim's cards are laid down before the reveal: every seat knows of them.
    assert dict(ttr_core.player_view(waiting, 1).seats[0].known) == {"purple": 2}
    # 2 purple spare, 1 locomotive spare: 2 purple, or 1 purple + 1 locomotive.
    assert ttr_core.legal_actions(waiting) == (PayTunnel(0, 0), PayTunnel(0, 1), GiveUpTunnel(0))
    done = ttr_core.apply(waiting, PayTunnel(0, 1))
    assert done.owners[route] == 0
    assert done.players[0].hand.counts == counts(state, purple=1)
    assert done.players[0].cars == state.players[0].cars - 2
    assert done.pending is not None and (done.pending.kind, done.pending.player) == ("turn", 1)
    assert done.turn == state.turn + 1
    assert card_total(done) == EUROPE_CARDS


def test_tunnel_surcharge_gray_paid_with_a_colour() -> None:
    state = ready(game(), ("red", "green", "wild"), red=5, green=3)
    route = paris_zurich(state)
    claim = ClaimRoute(0, route, "red", 0)
    waiting = ttr_core.apply(state, claim)
    # Red was paid: the red and the locomotive count, the green does not.
    assert wait_of(waiting).extra == 2
    assert ttr_core.legal_actions(waiting) == (PayTunnel(0, 0), GiveUpTunnel(0))
    done = ttr_core.apply(waiting, PayTunnel(0, 0))
    assert done.owners[route] == 0
    assert done.players[0].hand.counts == counts(state, green=3)


def test_tunnel_paid_with_locomotives_only() -> None:
    state = ready(game(), ("purple", "wild", "purple"), wild=3, purple=5)
    route = marseille_zurich(state)
    claim = ClaimRoute(0, route, None, 2)
    waiting = ttr_core.apply(state, claim)
    # Only the revealed locomotive counts, and it is paid with a locomotive.
    assert wait_of(waiting).extra == 1
    assert ttr_core.legal_actions(waiting) == (PayTunnel(0, 1), GiveUpTunnel(0))
    done = ttr_core.apply(waiting, PayTunnel(0, 1))
    assert done.owners[route] == 0
    assert done.players[0].hand.counts == counts(state, purple=5)
    # Two locomotives left after the claim: the third cannot be paid in purple.
    state = ready(game(), ("wild", "wild", "red"), wild=3, purple=5)
    waiting = ttr_core.apply(state, claim)
    assert wait_of(waiting).extra == 2
    assert ttr_core.legal_actions(waiting) == (GiveUpTunnel(0),)


def test_tunnel_with_no_matches_asks_nothing_more() -> None:
    state = ready(game(), ("blue", "green", "black"), purple=2)
    route = marseille_zurich(state)
    waiting = ttr_core.apply(state, ClaimRoute(0, route, "purple", 0))
    assert wait_of(waiting).extra == 0
    # Nothing more to pay; giving up is listed all the same (EU2).
    assert ttr_core.legal_actions(waiting) == (PayTunnel(0, 0), GiveUpTunnel(0))
    done = ttr_core.apply(waiting, PayTunnel(0, 0))
    assert done.owners[route] == 0 and done.players[0].hand.total == 0


def test_tunnel_too_few_cards_to_pay() -> None:
    state = ready(game(), ("purple", "purple", "wild"), purple=3)
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert wait_of(waiting).extra == 3
    assert ttr_core.legal_actions(waiting) == (GiveUpTunnel(0),)
    for wilds in range(4):
        with pytest.raises(IllegalAction) as err:
            ttr_core.apply(waiting, PayTunnel(0, wilds))
        assert err.value.reason == Reason.CARDS_DO_NOT_PAY


def test_tunnel_give_up_returns_the_cards_and_ends_the_turn() -> None:
    state = ready(game(), ("purple", "wild", "blue"), purple=2, red=1)
    route = marseille_zurich(state)
    waiting = ttr_core.apply(state, ClaimRoute(0, route, "purple", 0))
    gave_up = ttr_core.apply(waiting, GiveUpTunnel(0))
    assert gave_up.owners == state.owners  # nothing claimed
    assert unseen(gave_up) == unseen(state)  # cards and cars kept
    # ... and the cards laid down were seen: known until played.
    assert dict(ttr_core.player_view(gave_up, 1).seats[0].known) == {"purple": 2}
    assert gave_up.turn == state.turn + 1 and gave_up.ply == state.ply + 2
    assert gave_up.pending is not None and (gave_up.pending.kind, gave_up.pending.player) == (
        "turn",
        1,
    )
    # The revealed cards stay on the discard pile.
    assert gave_up.discard == waiting.discard != state.discard


def test_tunnel_revealed_cards_go_to_the_discard() -> None:
    state = ready(game(), ("orange", "wild", "purple"), purple=3, wild=1)
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert waiting.deck == state.deck[3:]
    assert waiting.discard == tuple(
        n + d for n, d in zip(state.discard, counts(state, orange=1, wild=1, purple=1), strict=True)
    )
    done = ttr_core.apply(waiting, PayTunnel(0, 1))  # 1 purple + 1 locomotive more
    assert done.discard == tuple(
        n + d for n, d in zip(waiting.discard, counts(state, purple=3, wild=1), strict=True)
    )
    assert card_total(done) == EUROPE_CARDS


# -- engine decisions -----------------------------------------------------------------


def _short_deck(state: GameState, deck: int, discard: int) -> GameState:
    """Leave ``deck`` cards on the deck and ``discard`` on the discard pile; the rest
    of both go to seat 1's hand (the card total is kept)."""
    cards = [*state.deck, *(c for c, n in enumerate(state.discard) for _ in range(n))]
    kept, piled, rest = cards[:deck], cards[deck : deck + discard], cards[deck + discard :]
    pile = [0] * len(state.discard)
    for card in piled:
        pile[card] += 1
    held = list(state.players[1].hand.counts)
    for card in rest:
        held[card] += 1
    other = attrs.evolve(state.players[1], hand=Hand(tuple(held), state.board.card_names))
    return attrs.evolve(
        state, deck=tuple(kept), discard=tuple(pile), players=(state.players[0], other)
    )


def test_eu1_reveal_with_a_short_deck() -> None:
    base = ready(game(), (), purple=2)
    claim = ClaimRoute(0, marseille_zurich(base), "purple", 0)
    # One card in the deck, two on the discard pile: the pile is shuffled in.
    state = _short_deck(base, 1, 2)
    waiting = ttr_core.apply(state, claim)
    assert len(wait_of(waiting).revealed) == 3 and waiting.shuffles == state.shuffles + 1
    assert sum(waiting.discard) == 3 and not waiting.deck
    # Two cards in all: two revealed.
    waiting = ttr_core.apply(_short_deck(base, 1, 1), claim)
    assert len(wait_of(waiting).revealed) == 2
    # None at all: nothing revealed, nothing more to pay.
    waiting = ttr_core.apply(_short_deck(base, 0, 0), claim)
    assert wait_of(waiting) == TunnelWait(claim, (), 0)
    assert PayTunnel(0, 0) in ttr_core.legal_actions(waiting)
    assert ttr_core.apply(waiting, PayTunnel(0, 0)).owners[claim.route] == 0


def test_eu2_a_tunnel_the_seat_can_never_pay_is_not_listed() -> None:
    state = ready(game(), (), purple=1, red=4)
    route = marseille_zurich(state)
    assert not [
        a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route
    ]
    with pytest.raises(IllegalAction):
        ttr_core.apply(state, ClaimRoute(0, route, "purple", 0))


def test_eu2_pay_listed_only_when_payable_give_up_always() -> None:
    for deck, hand, listed in [
        (("blue", "red", "black"), {"purple": 2}, [0]),
        (("purple", "red", "black"), {"purple": 2}, []),
        (("purple", "wild", "black"), {"purple": 3, "wild": 2}, [0, 1, 2][1:]),
        (("purple", "wild", "black"), {"purple": 4, "wild": 2}, [0, 1, 2]),
    ]:
        state = ready(game(), deck, **hand)
        waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
        legal = ttr_core.legal_actions(waiting)
        assert legal == (*(PayTunnel(0, k) for k in listed), GiveUpTunnel(0)), (deck, hand)
        for action in legal:  # each listed answer applies
            ttr_core.apply(waiting, action)


def test_eu5_a_revealed_locomotive_leaves_the_display_alone() -> None:
    state = set_display(game(), "wild", "wild", "red", "blue", "green")
    state = ready(state, ("wild", "wild", "wild"), purple=2)
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert wait_of(waiting).revealed == ("wild", "wild", "wild")
    assert waiting.display == state.display  # no reset: the display is untouched
    wild = state.board.wild
    assert waiting.discard[wild] == state.discard[wild] + 3


def test_the_number_revealed_is_an_option() -> None:
    assert ttr_core.variant_options("tunnels")[0].default == 3
    state = ready(game(reveal=1), ("purple", "purple", "purple"), purple=2)
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert wait_of(waiting).revealed == ("purple",)
    state = ready(game(reveal=0), ("purple",), purple=2)
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert wait_of(waiting).extra == 0 and waiting.deck == state.deck
    with pytest.raises(ttr_core.OptionError):
        game(reveal=-1)


def test_other_routes_claim_at_once() -> None:
    state = ready(game(), (), blue=4)
    route = route_id(state, "Frankfurt", "München")  # not a tunnel
    routes = [r for r in state.board.routes if r.id == route]
    assert not routes[0].extra.get("tunnel")
    claims = [
        a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute) and a.route == route
    ]
    if claims:
        done = ttr_core.apply(state, claims[0])
        assert done.owners[route] == 0 and done.pending is not None
        assert done.pending.kind == "turn"


def test_answers_out_of_place_are_refused() -> None:
    state = ready(game(), ("purple", "blue", "blue"), purple=3)
    for action in (PayTunnel(0, 0), GiveUpTunnel(0)):
        with pytest.raises(IllegalAction) as err:
            ttr_core.apply(state, action)
        assert err.value.reason == Reason.WRONG_PHASE
    waiting = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(waiting, PayTunnel(0, True))
    assert err.value.reason == Reason.MALFORMED_ACTION
    with pytest.raises(IllegalAction):
        ttr_core.apply(waiting, PayTunnel(1, 0))  # not the claiming seat
    with pytest.raises(IllegalAction):
        ttr_core.apply(waiting, ttr_core.DrawBlind(0))  # only the tunnel's answers


def test_a_map_without_tunnels_is_refused() -> None:
    with pytest.raises(ttr_core.GameConfigError, match="tunnel"):
        ttr_core.new_game("usa", 2, variants=["tunnels"])


# -- saves, views, ids, words --------------------------------------------------------


def _waiting(reveal: int | None = None) -> GameState:
    state = ready(game(reveal=reveal), ("purple", "wild", "red"), purple=3, wild=1)
    return ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))


def test_a_game_waiting_on_a_tunnel_is_saved_and_loaded() -> None:
    waiting = _waiting(reveal=2)
    loaded: GameState = ttr_core.from_json(ttr_core.to_json(waiting), GameState)
    assert loaded == waiting
    assert loaded.rules.option("tunnels", "reveal") == 2
    for action in ttr_core.legal_actions(waiting):
        assert ttr_core.apply(loaded, action) == ttr_core.apply(waiting, action)


def test_a_loaded_tunnel_with_a_wrong_surcharge_is_refused() -> None:
    waiting = _waiting()
    assert waiting.pending is not None
    wrong = attrs.evolve(
        waiting,
        pending=attrs.evolve(waiting.pending, data=attrs.evolve(wait_of(waiting), extra=3)),
    )
    with pytest.raises(ttr_core.DataError, match="surcharge"):
        ttr_core.from_json(ttr_core.to_json(wrong), GameState)


def test_every_view_shows_the_waiting_tunnel() -> None:
    waiting = _waiting()
    for seat in range(2):
        view = ttr_core.player_view(waiting, seat)
        assert view.variants["tunnels.pay"] == wait_of(waiting)
        loaded: PlayerView = ttr_core.from_json(ttr_core.to_json(view), PlayerView)
        assert loaded.variants == view.variants
        world = ttr_core.determinize(view, 7)
        assert world.pending == waiting.pending
    assert ttr_core.player_view(_waiting(), 1).variants["tunnels.pay"] is not None
    assert ttr_core.player_view(game(), 1).variants == {
        "tunnels.pay": None,
        "tunnels.asked": 0,
        "tunnels.turned_up": (0,) * 9,
    }
    shown = ttr_core.player_view(waiting, 0).variants
    wait = wait_of(waiting)
    assert shown["tunnels.asked"] == wait.extra
    assert sum(shown["tunnels.turned_up"]) == len(wait.revealed)


def test_action_ids_cover_every_answer() -> None:
    waiting = _waiting()
    space = ttr_core.action_space(waiting.board, 2, VARIANTS)
    # Pay with 0 to 3 locomotives, give up: 5 ids after the core's (ferries add none).
    assert space.size == space.core_size + 5
    ids = ttr_core.legal_action_ids(waiting)
    assert len(ids) == len(ttr_core.legal_actions(waiting)) == 2
    assert all(aid >= space.core_size for aid in ids)
    for action, aid in zip(ttr_core.legal_actions(waiting), ids, strict=True):
        assert ttr_core.action_from_id(waiting, aid) == action


def test_the_answers_in_words() -> None:
    waiting = _waiting()
    paid = ttr_core.describe(waiting, PayTunnel(0, 1), seat=1)
    assert paid == (
        "Seat 0 turned up purple, locomotive, red for the tunnel Marseille–Zürich: "
        "2 more cards; paid 2 more (1 locomotive + 1 purple)"
    )
    gave_up = ttr_core.describe(waiting, GiveUpTunnel(0))
    assert gave_up.endswith(": 2 more cards; gave up the tunnel")
    state = ready(game(), ("blue", "green", "black"), purple=2)
    none = ttr_core.apply(state, ClaimRoute(0, marseille_zurich(state), "purple", 0))
    assert ttr_core.describe(none, PayTunnel(0, 0)).endswith(
        "turned up blue, green, black for the tunnel Marseille–Zürich: no more cards; "
        "claimed it with nothing more"
    )


def test_pettingzoo_plays_tunnels_by_action_id() -> None:
    pytest.importorskip("pettingzoo")
    from ttr_core.pettingzoo import env

    game_env = env("europe", 3, variants=VARIANTS)
    game_env.reset(seed=3)
    rng = random.Random(3)
    steps = answers = 0
    space = ttr_core.action_space(ttr_core.load_map("europe"), 3, VARIANTS)
    for _agent in game_env.agent_iter():
        observation, _, terminated, truncated, _ = game_env.last()
        if terminated or truncated:
            game_env.step(None)
            continue
        legal = [i for i, ok in enumerate(observation["action_mask"]) if ok]
        choice = rng.choice(legal)
        answers += choice >= space.core_size
        game_env.step(choice)
        steps += 1
    assert steps > 100 and answers


# -- bots -------------------------------------------------------------------------------


def test_bots_weigh_the_surcharge_and_pay_with_purpose() -> None:
    state = game()
    view = ttr_core.player_view(state, 0)
    costs = tunnels.ttr_agent_route_costs(view)
    board = state.board
    assert all((cost > 0) == tunnels.is_tunnel(board, r) for r, cost in enumerate(costs))
    waiting = _waiting()
    view = ttr_core.player_view(waiting, 0)
    route = wait_of(waiting).claim.route
    assert tunnels.ttr_agent_route_costs(view)[route] == 0  # the surcharge is known now
    purpose = tunnels.ttr_agent_action_purpose(view, PayTunnel(0, 1))
    assert purpose == ClaimsRoute(route, extra_cost=2.0, wilds=1)
    assert tunnels.ttr_agent_action_purpose(view, GiveUpTunnel(0)) is None


def test_bots_attempt_tunnels() -> None:
    previous = ttr_core.set_strict(False)
    taken: Counter[str] = Counter()
    try:
        for seed, bot in enumerate(("route", "hungry")):
            state = ttr_core.new_game("europe", 2, seed=seed, variants=VARIANTS)
            agents = [make_agent(bot), make_agent(bot)]
            rng = random.Random(seed)
            while not state.is_over:
                seat = state.pending.player  # type: ignore[union-attr]
                legal = ttr_core.legal_actions(state)
                action = agents[seat].act(ttr_core.player_view(state, seat), legal, rng)
                taken[type(action).__name__] += 1
                if isinstance(action, ClaimRoute) and tunnels.is_tunnel(state.board, action.route):
                    taken["tunnel claim"] += 1
                state = ttr_core.apply(state, action)
    finally:
        ttr_core.set_strict(previous)
    assert taken["tunnel claim"] and taken["PayTunnel"]


# -- random games and the plugin's own invariants ------------------------------------


def random_choice(seed: int) -> Callable[[GameState, Sequence[Action]], Action]:
    chooser = random.Random(seed)
    return lambda _, legal: chooser.choice(legal)


def test_random_games_on_europe_keep_every_invariant() -> None:
    check_rules("europe", VARIANTS, examples=15)


def test_random_games_reach_every_answer() -> None:
    seen: Counter[str] = Counter()
    for seed in range(4):
        state = ttr_core.new_game("europe", 2 + seed, seed=seed, variants=VARIANTS)
        report = play_checked(state, random_choice(seed))
        assert not report.violations, report.violations
        assert {"tunnels.check_state", "tunnels.check_transition"} <= set(report.checks)
        seen.update(type(a).__name__ for a in report.play.actions)
    assert seen["PayTunnel"] and seen["GiveUpTunnel"]


@hookimpl
def _wrong_before_claim(state: GameState, action: ClaimRoute) -> GameState | None:
    """The plugin's reveal, with a wrong surcharge: every card revealed counts."""
    new = tunnels.ttr_before_claim(state, action)
    if new is None:
        return None
    wait = wait_of(new)
    return effects.set_pending(new, PAY, action.player, data=attrs.evolve(wait, extra=3))


@pytest.fixture
def broken() -> Iterator[None]:
    copy = types.ModuleType("broken_tunnels")
    for name in dir(tunnels):
        if name.startswith("ttr_"):
            setattr(copy, name, getattr(tunnels, name))
    copy.ttr_before_claim = _wrong_before_claim  # type: ignore[attr-defined]
    ttr_core.register_variant("tunnels", copy)
    yield
    ttr_core.unregister_variant("tunnels")


def test_a_wrong_surcharge_is_caught(broken: None) -> None:
    caught = set()
    for seed in range(6):
        state = ttr_core.new_game("europe", 2, seed=seed, variants=VARIANTS)
        report = play_checked(state, random_choice(seed))
        caught |= {v.invariant for v in report.violations}
        if "tunnels.check_transition" in caught:
            break
    assert "tunnels.check_transition" in caught
    with pytest.raises(Exception, match="surcharge"):
        check_rules("europe", VARIANTS, players=2, examples=5)
