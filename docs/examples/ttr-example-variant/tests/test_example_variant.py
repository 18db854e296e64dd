"""Tests of the card-swap variant, run against the *installed* package.

ttr-core finds the plugin through its entry point, exactly as it would find
any third-party variant. ``conftest.py`` turns strict hook checks on.
"""

from __future__ import annotations

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
from ttr_example_variant import PICK, PickFaceUp, SwapCards

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
) -> GameState:
    """A new game past the starting ticket choice: seat 0 to take its first turn."""
    state = ttr_core.new_game(MAP, players, seed=seed, variants=variants, options=options)
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
        assert dict(ttr_core.player_view(state, seat).variants) == {"swap.used": (False,) * players}


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
    assert dict(ttr_core.player_view(state, 1).variants) == {"swap.used": (True, False)}


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
