"""Tests of the card-swap-and-bridges variant, run against the *installed* package.

ttr-core finds the plugin through its entry point, exactly as it would find
any third-party variant. ``conftest.py`` turns strict hook checks on.
"""

from __future__ import annotations

import functools
import inspect
import random
import re
from collections.abc import Mapping
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import attrs
import pytest
import ttr_example_variant
from broken_swap import broken_plugin
from ttr_example_variant import BRIDGE, PICK, GiveUp, PayExtra, PickFaceUp, SwapCards

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DrawBlind,
    GameState,
    Hand,
    IllegalAction,
    KeepTickets,
    PendingKind,
    Reason,
)
from ttr_core.agents import make_agent
from ttr_core.hooks import calls

MAP = "newyork"
VARIANTS = ["attractions", "swap"]
CARDS = 44  # transportation cards in the New York game
COLORS = ("blue", "green", "black", "pink", "red", "orange")


# ---------------------------------------------------------------------------
# Helpers: build exact situations (states are frozen: attrs.evolve copies)
# ---------------------------------------------------------------------------


def started(
    players: int = 2,
    seed: int = 0,
    variants: list[str] = VARIANTS,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    map_name: str = MAP,
) -> GameState:
    """A new game past the starting ticket choice: seat 0 to take its first turn."""
    state = ttr_core.new_game(map_name, players, seed=seed, variants=variants, options=options)
    while state.pending is not None and state.pending.kind == PendingKind.START_TICKETS:
        state = ttr_core.apply(state, KeepTickets(state.pending.player, state.pending.offered))
    return state


def card_total(state: GameState) -> int:
    """Cards in deck, display, discard pile and hands: always :data:`CARDS`."""
    return (
        len(state.deck)
        + sum(1 for card in state.display if card is not None)
        + sum(state.discard)
        + sum(player.hand.total for player in state.players)
    )


def with_hand(state: GameState, seat: int, **cards: int) -> GameState:
    """Give ``seat`` exactly ``cards`` (name=count), exchanged with the deck."""
    names = state.board.card_names
    deck = list(state.deck)
    for card, count in enumerate(state.players[seat].hand.counts):
        deck.extend([card] * count)
    counts = tuple(cards.get(name, 0) for name in names)
    for card, count in enumerate(counts):
        for _ in range(count):
            deck.remove(card)
    player = attrs.evolve(state.players[seat], hand=Hand(counts, names))
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players, deck=tuple(deck))


def with_display(state: GameState, *cards: str | None, deck_top: str | None = None) -> GameState:
    """Lay the display out from card names (``None``: empty slot), optionally
    with ``deck_top`` on top of the deck; the old display goes back to the deck."""
    names = state.board.card_names
    deck = list(state.deck) + [card for card in state.display if card is not None]
    display = []
    for name in cards:
        if name is not None:
            deck.remove(names.index(name))
        display.append(None if name is None else names.index(name))
    if deck_top is not None:
        deck.remove(names.index(deck_top))
        deck.insert(0, names.index(deck_top))
    return attrs.evolve(state, display=tuple(display), deck=tuple(deck))


def swaps_listed(state: GameState) -> set[str]:
    """The colours of the swaps ``legal_actions`` lists."""
    return {a.color for a in ttr_core.legal_actions(state) if isinstance(a, SwapCards)}


def refusal(state: GameState, action: Action) -> str:
    """The reason code ``apply`` refuses ``action`` with."""
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, action)
    return str(err.value.reason)


def swap_line(sheet: ttr_core.ScoreSheet) -> ttr_core.ScoreLine:
    """The one line the variant adds to a score sheet."""
    (line,) = [line for line in sheet.lines if line.kind == "swap"]
    return line


def is_lone_wild_claim(state: GameState, action: Action) -> bool:
    """A claim of a length-1 route paid with a wild alone (what the filter removes)."""
    return (
        isinstance(action, ClaimRoute)
        and action.color is None
        and state.board.routes[action.route].length == 1
    )


def route(state: GameState, a: str, b: str, color: str) -> int:
    """The id of the ``color`` route between ``a`` and ``b``."""
    (rid,) = [r.id for r in state.board.routes if {r.a, r.b} == {a, b} and r.color == color]
    return rid


# ---------------------------------------------------------------------------
# Registration, options, set-up, view
# ---------------------------------------------------------------------------


def test_the_plugin_is_found_through_its_entry_point() -> None:
    found = {ep.name: ep for ep in entry_points(group="ttr_core.plugins")}
    assert found["swap"].value == "ttr_example_variant"
    assert found["swap"].load() is ttr_example_variant
    assert "swap" in ttr_core.available_variants()
    assert "swap" not in ttr_core.broken_variants()
    assert ttr_core.new_game(MAP, 2, variants=["swap"]).rules.variants == ("swap",)


def test_the_option_is_declared_and_checked() -> None:
    (option,) = ttr_core.variant_options("swap")
    assert (option.name, option.type, option.default, option.low) == ("unused_bonus", int, 2, 0)
    rules = ttr_core.new_game(MAP, 2, variants=VARIANTS).rules
    assert rules.option("swap", "unused_bonus") == 2
    options = {"swap": {"unused_bonus": 5}}
    rules = ttr_core.new_game(MAP, 2, variants=VARIANTS, options=options).rules
    assert rules.option("swap", "unused_bonus") == 5
    for bad in ({"unused_bonus": -1}, {"unused_bonus": "3"}, {"unused_bonnus": 3}):
        with pytest.raises(ttr_core.OptionError):
            ttr_core.new_game(MAP, 2, variants=VARIANTS, options={"swap": bad})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_every_seat_an_unused_swap_shown_to_all(players: int) -> None:
    state = ttr_core.new_game(MAP, players, variants=VARIANTS)
    assert state.variant("swap") == (False,) * players
    for seat in range(players):
        shown = dict(ttr_core.player_view(state, seat).variants)
        assert shown == {"swap.used": (False,) * players, "swap.bridge": None}


# ---------------------------------------------------------------------------
# The swap action: listed exactly when legal
# ---------------------------------------------------------------------------


def test_a_swap_is_listed_for_each_colour_held_twice_and_never_for_wilds() -> None:
    state = started()
    assert swaps_listed(with_hand(state, 0, red=2, blue=1, wild=3)) == {"red"}
    assert swaps_listed(with_hand(state, 0, red=3, orange=2, pink=2)) == {"red", "orange", "pink"}
    assert swaps_listed(with_hand(state, 0, red=1, blue=1, black=1, wild=4)) == set()
    assert swaps_listed(with_hand(state, 0)) == set()


def test_each_colour_is_listed_exactly_when_apply_accepts_its_swap() -> None:
    state = with_hand(started(), 0, green=2, black=1, wild=2)
    legal = ttr_core.legal_actions(state)
    for color in (*COLORS, "wild", "purple"):
        swap = SwapCards(0, color)
        if swap in legal:
            ttr_core.apply(state, swap)
        else:
            assert refusal(state, swap) in {"swap.too_few_cards", "swap.bad_color"}
    assert refusal(state, SwapCards(0, "wild")) == "swap.bad_color"
    assert refusal(state, SwapCards(0, "purple")) == "swap.bad_color"
    assert refusal(state, SwapCards(0, "black")) == "swap.too_few_cards"


def test_no_swap_without_a_face_up_card() -> None:
    state = with_hand(started(), 0, red=2)
    empty = with_display(state, None, None, None, None, None)
    assert card_total(empty) == CARDS
    assert swaps_listed(empty) == set()
    assert refusal(empty, SwapCards(0, "red")) == "swap.no_face_up"
    # one face-up card is enough
    assert swaps_listed(with_display(state, None, None, "blue", None, None)) == {"red"}


def test_no_swap_outside_a_turn_decision() -> None:
    # The starting ticket choice.
    state = ttr_core.new_game(MAP, 2, variants=VARIANTS)
    state = with_hand(state, 0, red=2)
    assert swaps_listed(state) == set()
    assert refusal(state, SwapCards(0, "red")) == "swap.not_now"
    # The second card of a draw.
    state = with_hand(started(), 0, red=2)
    state = ttr_core.apply(state, DrawBlind(0))
    assert state.pending is not None and state.pending.kind == PendingKind.SECOND_CARD
    assert swaps_listed(state) == set()
    assert refusal(state, SwapCards(0, "red")) == "swap.not_now"
    # Out of turn: the core refuses before the plugin is asked.
    assert refusal(with_hand(started(), 1, red=2), SwapCards(1, "red")) == Reason.NOT_YOUR_TURN


# ---------------------------------------------------------------------------
# The swap's effect and the variant's own decision
# ---------------------------------------------------------------------------


def test_a_swap_discards_two_cards_then_waits_for_a_pick_of_the_same_seat() -> None:
    state = with_hand(started(), 0, red=3, blue=1)
    state = with_display(state, "blue", "green", "black", "pink", "wild", deck_top="red")
    red = state.board.card_names.index("red")
    after = ttr_core.apply(state, SwapCards(0, "red"))
    hand = after.players[0].hand
    assert (hand["red"], hand["blue"], hand.total) == (1, 1, 2)
    assert after.discard[red] == state.discard[red] + 2
    assert after.display == state.display and after.deck == state.deck
    assert card_total(after) == CARDS
    assert after.variant("swap") == (True, False)
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player) == (PICK, 0)
    assert after.turn == state.turn  # the turn is not over yet


def test_the_pick_decision_lists_only_the_picks_and_refuses_everything_else() -> None:
    state = with_hand(started(), 0, red=2)
    state = ttr_core.apply(state, SwapCards(0, "red"))
    assert ttr_core.legal_actions(state) == tuple(PickFaceUp(0, slot) for slot in range(5))
    assert refusal(state, DrawBlind(0)) == Reason.WRONG_PHASE
    assert refusal(state, SwapCards(0, "red")) == "swap.not_now"
    assert refusal(state, PickFaceUp(0, 9)) == Reason.BAD_SLOT
    assert refusal(state, PickFaceUp(1, 0)) == Reason.NOT_YOUR_TURN
    # A pick is only ever an answer to a swap.
    assert refusal(started(), PickFaceUp(0, 0)) == "swap.not_now"


def test_when_the_cards_run_out_the_discarded_cards_refill_the_display() -> None:
    # Every card not face up is in a hand: three slots are empty, the deck
    # and the discard pile too (engine decision E4 leaves such slots empty).
    state = with_hand(started(), 0, red=2)
    state = with_display(state, "blue", None, None, None, "black")
    names = state.board.card_names
    rest = dict(state.players[1].hand)
    for card in state.deck:
        rest[names[card]] += 1
    state = with_hand(state, 1, **rest)
    assert (state.deck, sum(state.discard), card_total(state)) == ((), 0, CARDS)
    state = ttr_core.apply(state, SwapCards(0, "red"))
    # The two red cards discarded fill two of the empty slots.
    shown = [None if card is None else names[card] for card in state.display]
    assert shown == ["blue", "red", "red", None, "black"]
    assert ttr_core.legal_actions(state) == tuple(PickFaceUp(0, slot) for slot in (0, 1, 2, 4))
    assert refusal(state, PickFaceUp(0, 3)) == Reason.EMPTY_SLOT
    after = ttr_core.apply(state, PickFaceUp(0, 2))
    assert after.players[0].hand["red"] == 1
    assert after.display[2] is None  # nothing left to refill it with
    assert card_total(after) == CARDS


def test_the_pick_takes_the_card_refills_the_slot_and_ends_the_turn() -> None:
    state = with_hand(started(), 0, red=3, blue=1)
    state = with_display(state, "blue", "green", "black", "pink", "wild", deck_top="orange")
    names = state.board.card_names
    state = ttr_core.apply(state, SwapCards(0, "red"))
    after = ttr_core.apply(state, PickFaceUp(0, 4))
    hand = after.players[0].hand
    assert (hand["red"], hand["blue"], hand["wild"], hand.total) == (1, 1, 1, 3)
    assert after.display[4] == names.index("orange")  # refilled from the deck
    assert after.display[:4] == state.display[:4]
    assert after.deck == state.deck[1:]
    assert card_total(after) == CARDS
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player) == (PendingKind.TURN, 1)
    assert after.turn == state.turn + 1


def test_each_seat_swaps_once_per_game() -> None:
    state = with_hand(started(), 0, red=2)
    state = ttr_core.apply(state, SwapCards(0, "red"))
    state = ttr_core.apply(state, PickFaceUp(0, 0))
    # Seat 1 still has its own swap.
    state = with_hand(state, 1, blue=2)
    assert swaps_listed(state) == {"blue"}
    state = ttr_core.apply(state, DrawBlind(1))
    state = ttr_core.apply(state, DrawBlind(1))
    # Seat 0's next turn: it holds two of a colour again, but has swapped.
    state = with_hand(state, 0, red=2, green=2)
    assert state.current_player == 0
    assert swaps_listed(state) == set()
    assert refusal(state, SwapCards(0, "red")) == "swap.already_used"
    assert ttr_core.player_view(state, 1).variants["swap.used"] == (True, False)


# ---------------------------------------------------------------------------
# The filter: no length-1 route claimed with a wild alone
# ---------------------------------------------------------------------------


def test_the_filter_removes_exactly_the_lone_wild_claims_of_length_1_routes() -> None:
    cards = {"wild": 2, "orange": 1, "blue": 2}
    plain = with_hand(started(variants=["attractions"]), 0, **cards)
    swap = with_hand(started(variants=VARIANTS), 0, **cards)
    assert plain.players == swap.players and plain.display == swap.display
    plain_legal = set(ttr_core.legal_actions(plain))
    swap_legal = {a for a in ttr_core.legal_actions(swap) if not isinstance(a, SwapCards)}
    removed = plain_legal - swap_legal
    assert removed  # New York has length-1 routes: there was something to remove
    assert swap_legal < plain_legal
    assert all(is_lone_wild_claim(swap, action) for action in removed)
    assert not any(is_lone_wild_claim(swap, action) for action in swap_legal)
    # Other ways to pay the same routes, and all-wild claims of longer routes, stay.
    orange = route(swap, "Times Square", "Empire State Building", "orange")
    assert ClaimRoute(0, orange, None, 1) in removed
    assert ClaimRoute(0, orange, "orange", 0) in swap_legal
    longer = [a for a in swap_legal if isinstance(a, ClaimRoute) and a.color is None]
    assert longer and all(swap.board.routes[a.route].length == 2 for a in longer)


def test_apply_refuses_what_the_filter_removed_and_accepts_the_rest() -> None:
    state = with_hand(started(), 0, wild=1, orange=1)
    orange = route(state, "Times Square", "Empire State Building", "orange")
    with pytest.raises(IllegalAction) as err:
        ttr_core.apply(state, ClaimRoute(0, orange, None, 1))
    assert err.value.reason == Reason.VETOED
    assert "'swap'" in str(err.value)
    claimed = ttr_core.apply(state, ClaimRoute(0, orange, "orange", 0))
    assert claimed.owner(orange) == 0
    # Without the variant the lone wild pays the route.
    plain = with_hand(started(variants=["attractions"]), 0, wild=1)
    assert ttr_core.apply(plain, ClaimRoute(0, orange, None, 1)).owner(orange) == 0


# ---------------------------------------------------------------------------
# Bridges: a claim that asks for one card more (on the package's map)
# ---------------------------------------------------------------------------

TOWNS = "fourtowns"
TOWNS_CARDS = 22  # red 8, blue 8, wild 6
#: Routes of fourtowns: Alpha-Beta (red 1), the bridges Beta-Gamma (red 2 and
#: blue 2, a double pair), Gamma-Delta (gray 3), Alpha-Delta (blue 1).
ALPHA_BETA, RED_BRIDGE, BLUE_BRIDGE, GAMMA_DELTA, ALPHA_DELTA = range(5)


def in_towns(**cards: int) -> GameState:
    """A started 2-seat game on fourtowns, seat 0 to play holding ``cards``."""
    return with_hand(started(map_name=TOWNS, variants=["swap"]), 0, **cards)


def test_only_the_maps_bridges_are_bridges() -> None:
    towns = ttr_core.load_map(TOWNS)
    assert [r.id for r in towns.routes if ttr_example_variant.is_bridge(r)] == [1, 2]
    assert not any(ttr_example_variant.is_bridge(r) for r in ttr_core.load_map(MAP).routes)


def bridge_claims(state: GameState) -> set[ClaimRoute]:
    return {a for a in ttr_core.legal_actions(state) if isinstance(a, ClaimRoute) and a.route == 1}


def test_a_bridge_claim_is_listed_only_with_a_card_to_pay_it_one_more() -> None:
    assert bridge_claims(in_towns(red=2, blue=1)) == set()
    assert refusal(in_towns(red=2), ClaimRoute(0, RED_BRIDGE, "red", 0)) == Reason.VETOED
    assert bridge_claims(in_towns(red=3)) == {ClaimRoute(0, RED_BRIDGE, "red", 0)}
    assert bridge_claims(in_towns(red=2, wild=1)) == {
        ClaimRoute(0, RED_BRIDGE, "red", 0),  # and a wild more
        ClaimRoute(0, RED_BRIDGE, "red", 1),  # and a red more
    }
    assert bridge_claims(in_towns(wild=3)) == {ClaimRoute(0, RED_BRIDGE, None, 2)}
    # Other routes are paid as usual.
    claims = {a for a in ttr_core.legal_actions(in_towns(blue=1)) if isinstance(a, ClaimRoute)}
    assert claims == {ClaimRoute(0, ALPHA_DELTA, "blue", 0)}


def unseen(state: ttr_core.GameState) -> list[ttr_core.PlayerState]:
    """The seats less what every player knows of their hands (shown cards)."""
    return [attrs.evolve(player, known=()) for player in state.players]


def test_a_bridge_claim_waits_for_its_seat_with_nothing_claimed_or_paid() -> None:
    state = in_towns(red=3, wild=1)
    claim = ClaimRoute(0, RED_BRIDGE, "red", 0)
    waiting = ttr_core.apply(state, claim)
    assert waiting.pending is not None
    assert (waiting.pending.kind, waiting.pending.player, waiting.pending.data) == (
        BRIDGE,
        0,
        claim,
    )
    assert waiting.owners == state.owners and unseen(waiting) == unseen(state)
    assert waiting.discard == state.discard and waiting.turn == state.turn
    # The claim's cards are on the table: every seat knows the hand holds them.
    assert dict(ttr_core.player_view(waiting, 1).seats[0].known) == {"red": 2}
    assert ttr_core.legal_actions(waiting) == (PayExtra(0, "red"), PayExtra(0, "wild"), GiveUp(0))
    for seat in (0, 1):  # the claim is public
        assert ttr_core.player_view(waiting, seat).variants["swap.bridge"] == (0, 1, "red", 0)


def test_other_claims_do_not_wait() -> None:
    state = ttr_core.apply(in_towns(red=1), ClaimRoute(0, ALPHA_BETA, "red", 0))
    assert state.owner(ALPHA_BETA) == 0
    assert state.pending is not None and state.pending.kind == PendingKind.TURN


def check_paying_claims_the_bridge(plugin: Any = ttr_example_variant) -> None:
    """The extra card is paid on top of the claim, with the core's bookkeeping."""
    name = plugin.NAME
    state = with_hand(started(map_name=TOWNS, variants=[name]), 0, red=3, wild=1)
    red = state.board.card_names.index("red")
    waiting = ttr_core.apply(state, ClaimRoute(0, RED_BRIDGE, "red", 0))
    done = ttr_core.apply(waiting, plugin.PayExtra(0, "red"))
    hand = done.players[0].hand
    assert done.owner(RED_BRIDGE) == 0
    assert (hand["red"], hand["wild"]) == (0, 1)
    assert done.discard[red] == state.discard[red] + 3
    assert done.players[0].cars == state.players[0].cars - 2
    assert done.players[0].score == state.players[0].score + 2
    assert done.pending is not None
    assert (done.pending.kind, done.pending.player, done.turn) == ("turn", 1, state.turn + 1)
    assert card_total(done) == TOWNS_CARDS
    with_wild = ttr_core.apply(waiting, plugin.PayExtra(0, "wild")).players[0].hand
    assert (with_wild["red"], with_wild["wild"]) == (1, 0)


def test_paying_the_extra_card_claims_the_bridge() -> None:
    check_paying_claims_the_bridge()


def test_giving_up_claims_and_pays_nothing_and_ends_the_turn() -> None:
    state = in_towns(red=3)
    waiting = ttr_core.apply(state, ClaimRoute(0, RED_BRIDGE, "red", 0))
    after = ttr_core.apply(waiting, GiveUp(0))
    assert after.owners == state.owners and unseen(after) == unseen(state)
    assert after.discard == state.discard
    assert after.pending is not None
    assert (after.pending.kind, after.pending.player, after.turn) == ("turn", 1, state.turn + 1)


def test_the_bridge_decision_refuses_every_other_answer() -> None:
    waiting = ttr_core.apply(in_towns(red=3, blue=2), ClaimRoute(0, RED_BRIDGE, "red", 0))
    assert ttr_core.legal_actions(waiting) == (PayExtra(0, "red"), GiveUp(0))
    assert refusal(waiting, PayExtra(0, "blue")) == "swap.no_extra_card"
    assert refusal(waiting, PayExtra(0, "wild")) == "swap.no_extra_card"  # none held
    assert refusal(waiting, DrawBlind(0)) == Reason.WRONG_PHASE
    assert refusal(waiting, GiveUp(1)) == Reason.NOT_YOUR_TURN
    # The answers answer a bridge claim only.
    assert refusal(in_towns(red=3), PayExtra(0, "red")) == "swap.not_now"
    assert refusal(in_towns(red=3), GiveUp(0)) == "swap.not_now"


def test_a_waiting_bridge_claim_is_saved_and_rebuilt_from_any_view() -> None:
    waiting = ttr_core.apply(in_towns(red=2, wild=1), ClaimRoute(0, RED_BRIDGE, "red", 1))
    assert ttr_core.from_json(ttr_core.to_json(waiting), GameState) == waiting
    for seat in (0, 1):
        view = ttr_core.player_view(waiting, seat)
        view = ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView)
        rebuilt = ttr_core.determinize(view, seed=seat)
        assert rebuilt.pending == waiting.pending
        assert ttr_core.player_view(rebuilt, seat) == ttr_core.player_view(waiting, seat)


def test_the_bridge_actions_have_ids_and_words_and_the_bots_pay() -> None:
    waiting = ttr_core.apply(in_towns(red=3, wild=1), ClaimRoute(0, RED_BRIDGE, "red", 0))
    space = ttr_core.action_space(waiting.board, 2, ["swap"])
    ids = ttr_core.legal_action_ids(waiting)
    assert all(space.core_size <= aid < space.size for aid in ids)
    assert [ttr_core.action_from_id(waiting, aid) for aid in ids] == list(
        ttr_core.legal_actions(waiting)
    )
    # No bridge on New York: no ids for the bridge decision there.
    york = ttr_core.action_space(ttr_core.load_map(MAP), 2, ["swap"])
    assert york.size - york.core_size == len(COLORS) + 5  # swaps, picks
    words = [ttr_core.describe(waiting, a) for a in ttr_core.legal_actions(waiting)]
    assert words == [
        "Seat 0 paid one red card more for the bridge Beta–Gamma",
        "Seat 0 paid one joker card more for the bridge Beta–Gamma",
        "Seat 0 gave up the bridge Beta–Gamma",
    ]
    view = ttr_core.player_view(waiting, 0)
    # Through the core's checks, as the bots ask it (ttr_core.hooks.calls).
    purpose = functools.partial(calls.run_agent_action_purpose, waiting.rules)
    assert purpose(view, PayExtra(0, "red")) == ttr_core.ClaimsRoute(RED_BRIDGE, wilds=0)
    assert purpose(view, PayExtra(0, "wild")) == ttr_core.ClaimsRoute(RED_BRIDGE, wilds=1)
    assert purpose(view, GiveUp(0)) is None
    for bot in ("hungry", "route", "long", "onestep"):
        chosen = make_agent(bot).act(view, ttr_core.legal_actions(waiting), random.Random(0))
        assert chosen == PayExtra(0, "red"), bot  # a claim, and no wild spent


# PettingZoo's api_test warns about any dict observation space (ttr-core's holds
# the observation and the action mask, as the AEC API recommends).
@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
def test_openspiel_and_pettingzoo_play_games_with_bridges() -> None:
    """Their own checks, on the map with bridges: every answer has an id."""
    pyspiel = pytest.importorskip("pyspiel")
    pettingzoo_test = pytest.importorskip("pettingzoo.test")
    import ttr_core.openspiel as tos
    from ttr_core.pettingzoo import env

    game = pyspiel.load_game(tos.SHORT_NAME, {"map": TOWNS, "players": 2, "variants": "swap"})
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)
    pettingzoo_test.api_test(env(TOWNS, 3, variants=("swap",)), num_cycles=500)


# ---------------------------------------------------------------------------
# Open bridges: tickets may cross the bridges other seats built
# ---------------------------------------------------------------------------


def with_tickets(state: GameState, seat: int, *tickets: int) -> GameState:
    """Give ``seat`` exactly ``tickets``, exchanged with the ticket deck and discard pile."""
    held = state.players[seat].tickets
    deck = tuple(t for t in (*state.ticket_deck, *held) if t not in tickets)
    discard = tuple(t for t in state.ticket_discard if t not in tickets)
    player = attrs.evolve(state.players[seat], tickets=tuple(tickets))
    players = (*state.players[:seat], player, *state.players[seat + 1 :])
    return attrs.evolve(state, players=players, ticket_deck=deck, ticket_discard=discard)


def check_open_bridges(plugin: Any = ttr_example_variant) -> None:
    """Seat 0 owns Alpha-Beta; seat 1 the red bridge Beta-Gamma and Alpha-Delta.
    Seat 0's ticket Alpha-Gamma crosses seat 1's bridge; its ticket Beta-Delta
    would need seat 1's Alpha-Delta, which is no bridge."""
    name = plugin.NAME
    state = started(map_name=TOWNS, variants=[name])
    state = ttr_core.apply(with_hand(state, 0, red=1), ClaimRoute(0, ALPHA_BETA, "red", 0))
    state = ttr_core.apply(with_hand(state, 1, red=3), ClaimRoute(1, RED_BRIDGE, "red", 0))
    state = ttr_core.apply(state, plugin.PayExtra(1, "red"))
    state = ttr_core.apply(ttr_core.apply(state, DrawBlind(0)), DrawBlind(0))
    state = ttr_core.apply(with_hand(state, 1, blue=1), ClaimRoute(1, ALPHA_DELTA, "blue", 0))
    state = with_tickets(with_tickets(state, 0, 1, 4), 1, 0)
    connections = functools.partial(calls.run_ticket_connections, state.rules)
    assert list(connections(state, 0)) == [RED_BRIDGE]
    assert list(connections(state, 1)) == []  # its own bridge counts anyway
    sheets = ttr_core.score_sheets(state)
    lines = {line.ref: line.points for line in sheets[0].lines if line.kind == "ticket"}
    assert lines == {1: 3, 4: -2}
    assert (sheets[0].tickets_completed, sheets[0].tickets_failed) == (1, 1)
    # Seat 1's ticket Alpha-Beta would need seat 0's route, no bridge.
    assert (sheets[1].tickets_completed, sheets[1].tickets_failed) == (0, 1)


def test_tickets_cross_the_bridges_other_seats_built() -> None:
    check_open_bridges()


@pytest.mark.parametrize(
    ("check", "broken"),
    [
        (check_paying_claims_the_bridge, "swap_free_bridges"),
        (check_open_bridges, "swap_all_routes_open"),
    ],
)
def test_the_bridge_checks_fail_on_a_wrong_version(check: Any, broken: str) -> None:
    plugin = broken_plugin(broken)
    ttr_core.register_variant(broken, plugin)
    try:
        with pytest.raises(AssertionError):
            check(plugin)
    finally:
        ttr_core.unregister_variant(broken)


# ---------------------------------------------------------------------------
# The score line
# ---------------------------------------------------------------------------


def _after_seat_0_swaps(options: Mapping[str, Mapping[str, Any]] | None = None) -> GameState:
    state = with_hand(started(options=options), 0, red=2)
    state = ttr_core.apply(state, SwapCards(0, "red"))
    return ttr_core.apply(state, PickFaceUp(0, 0))


def test_the_unused_swap_bonus_with_the_default_option() -> None:
    sheets = ttr_core.score_sheets(_after_seat_0_swaps())
    assert swap_line(sheets[0]) == ttr_core.ScoreLine("swap", "Card swap used", 0)
    assert swap_line(sheets[1]) == ttr_core.ScoreLine("swap", "Card swap never used", 2)
    assert sheets[1].lines[-1].kind == "swap"  # after the attractions line: variant order
    for sheet in sheets:
        assert sheet.total == sum(line.points for line in sheet.lines)


def test_the_unused_swap_bonus_follows_the_option() -> None:
    default = ttr_core.score_sheets(_after_seat_0_swaps())
    custom = ttr_core.score_sheets(_after_seat_0_swaps({"swap": {"unused_bonus": 7}}))
    assert swap_line(custom[1]).points == 7
    assert custom[1].total - default[1].total == 7 - 2
    assert custom[0].total == default[0].total
    none = ttr_core.score_sheets(_after_seat_0_swaps({"swap": {"unused_bonus": 0}}))
    assert [swap_line(sheet).points for sheet in none] == [0, 0]


# ---------------------------------------------------------------------------
# Whole random games
# ---------------------------------------------------------------------------


def _check_decision(state: GameState, legal: tuple[Action, ...]) -> None:
    """The variant's rules, restated independently, hold in ``state``."""
    assert state.pending is not None
    seat, kind = state.pending.player, state.pending.kind
    assert not any(is_lone_wild_claim(state, action) for action in legal)
    if kind == PICK:
        slots = [slot for slot, card in enumerate(state.display) if card is not None]
        assert legal == tuple(PickFaceUp(seat, slot) for slot in slots)
        return
    expected: set[str] = set()
    if kind == PendingKind.TURN and not state.variant("swap")[seat] and slots_filled(state):
        hand = state.players[seat].hand
        expected = {color for color in COLORS if hand[color] >= 2}
    assert {a.color for a in legal if isinstance(a, SwapCards)} == expected
    assert not any(isinstance(a, PickFaceUp) for a in legal)


def slots_filled(state: GameState) -> bool:
    """Whether the display shows at least one card."""
    return any(card is not None for card in state.display)


def test_random_games_keep_every_rule_and_every_card() -> None:
    swapped = unused = 0
    for game in range(300):
        players = 2 + game % 3
        chooser = random.Random(game)
        state = ttr_core.new_game(MAP, players, seed=game, variants=VARIANTS)
        picks = 0
        while state.pending is not None:
            legal = ttr_core.legal_actions(state)
            _check_decision(state, legal)
            action = chooser.choice(legal)
            state = ttr_core.apply(state, action)
            picks += isinstance(action, PickFaceUp)
            assert card_total(state) == CARDS
        used = state.variant("swap")
        assert sum(used) == picks
        bonus = [swap_line(sheet).points for sheet in ttr_core.final_scores(state).sheets]
        assert bonus == [0 if u else 2 for u in used]
        swapped += sum(used)
        unused += used.count(False)
    # Both sides of the rule were exercised.
    assert swapped > 100 and unused > 10


def test_random_playouts_finish_with_every_card_accounted_for() -> None:
    for game in range(200):
        result = ttr_core.random_playout(MAP, 2 + game % 3, seed=game, variants=VARIANTS)
        assert result.state.is_over
        assert card_total(result.state) == CARDS
        assert result.scores.totals == tuple(
            sum(line.points for line in sheet.lines) for sheet in result.scores.sheets
        )
    again = ttr_core.random_playout(MAP, 3, seed=7, variants=VARIANTS)
    assert again.state == ttr_core.random_playout(MAP, 3, seed=7, variants=VARIANTS).state


# ---------------------------------------------------------------------------
# The README keeps up with the code
# ---------------------------------------------------------------------------

README = Path(__file__).resolve().parents[1] / "README.md"
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def _readme_blocks() -> list[str]:
    return PYTHON_BLOCK.findall(README.read_text(encoding="utf-8"))


def test_the_readme_shows_the_code_as_it_is_and_its_examples_run() -> None:
    blocks = _readme_blocks()
    assert len(blocks) > 10
    source = inspect.getsource(ttr_example_variant)
    for block in blocks:
        if block.startswith("import ttr_core"):
            exec(compile(block, str(README), "exec"), {})  # a usage example: it runs
        else:
            assert block in source, f"README.md shows code that is not in the module:\n{block}"
