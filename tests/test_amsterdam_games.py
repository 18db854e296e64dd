"""Amsterdam as played: printed and generated contracts, decks, random games, the demo."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ttr_core_plugins.merchandise import merchandise

import ttr_core
from ttr_core import GENERATED, GeneratedTicketsWarning
from ttr_core.cli import main

from .helpers import card_total

with warnings.catch_warnings():
    warnings.simplefilter("ignore", GeneratedTicketsWarning)  # pinned in test_amsterdam_map
    AMSTERDAM = ttr_core.load_map("amsterdam")


def test_the_rule_fits_the_four_printed_contracts() -> None:
    distances = ttr_core.shortest_spaces(AMSTERDAM)
    printed = [t for t in AMSTERDAM.tickets if not t.extra.get(GENERATED)]
    assert len(printed) == 4
    for ticket in printed:
        assert ticket.points == distances[(ticket.a, ticket.b)], ticket


def test_a_game_plays_the_printed_contracts_and_twenty_generated_ones() -> None:
    state = ttr_core.new_game("amsterdam", 3, seed=2)
    tickets = state.board.tickets
    assert len(tickets) == 24 and sum(1 for t in tickets if t.extra.get(GENERATED)) == 20
    distances = ttr_core.shortest_spaces(state.board)
    assert all(t.points == distances[(t.a, t.b)] for t in tickets)
    assert len({frozenset((t.a, t.b)) for t in tickets}) == 24


def test_a_complete_supplied_deck_plays_without_any_warning(tmp_path: Path) -> None:
    deck = ttr_core.generate_tickets(AMSTERDAM, 24, seed=9)
    path = tmp_path / "printed.toml"
    path.write_text(ttr_core.ticket_deck_toml(AMSTERDAM, deck))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        state = ttr_core.new_game("amsterdam", 2, tickets=path)
    assert not [w for w in caught if issubclass(w.category, GeneratedTicketsWarning)]
    assert state.board.tickets == deck
    assert not any(t.extra.get(GENERATED) for t in state.board.tickets)


def test_a_short_supplied_deck_is_completed_and_said_so(tmp_path: Path) -> None:
    deck = ttr_core.generate_tickets(AMSTERDAM, 10, seed=9)
    path = tmp_path / "partial.toml"
    path.write_text(ttr_core.ticket_deck_toml(AMSTERDAM, deck))
    with pytest.warns(GeneratedTicketsWarning, match="14 generated"):
        state = ttr_core.new_game("amsterdam", 2, tickets=path)
    assert len(state.board.tickets) == 24 and state.board.tickets[:10] == deck


@settings(max_examples=25)
@given(
    players=st.integers(2, 4),
    seed=st.integers(0, 10**6),
    merch=st.booleans(),
)
def test_random_games_keep_cards_and_merchandise(players: int, seed: int, merch: bool) -> None:
    variants = ["merchandise"] if merch else []
    state = ttr_core.new_game(AMSTERDAM, players, seed=seed, variants=variants)
    chooser = random.Random(seed)
    while state.pending is not None:
        legal = ttr_core.legal_actions(state)
        state = ttr_core.apply(state, legal[chooser.randrange(len(legal))])
        assert card_total(state) == AMSTERDAM.total_cards
        if merch:
            held = merchandise(state)
            assert held.deck + sum(held.held) == 16
            carts = [
                sum(1 for r in p.routes if AMSTERDAM.routes[r].extra["merchandise"])
                for p in state.players
            ]
            assert list(held.held) == carts  # 16 cards for 16 cart routes: never short
    for sheet in ttr_core.final_scores(state).sheets:
        assert sheet.total == sum(line.points for line in sheet.lines)
        assert any(line.kind == "merchandise" for line in sheet.lines) == merch


def test_the_demo_shows_merchandise_and_the_generated_contracts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--map", "amsterdam", "--players", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Tickets: 4 printed, 20 generated")
    assert "--tickets FILE" in out
    assert out.count("Merchandise: ") == 4
    assert main(["--map", "amsterdam", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "24 tickets (4 printed, 20 generated)" in shown
    assert "NOT verified: 20 of the 24 contracts" in shown
