"""Bounded memory: what the engine derives from a board lives only as long as the board."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import ttr_core

from .test_hook_results import newyork_text


def test_a_board_and_its_rule_sets_are_released_once_no_game_uses_them() -> None:
    board = ttr_core.parse_map(newyork_text(), "users-map.toml")
    result = ttr_core.random_playout(board, 3, seed=1)
    assert result.state.board is board
    assert board.derived, "the action table and rule set are kept on the board"
    board_ref = weakref.ref(board)
    rules_ref = weakref.ref(result.state.rules)
    del board, result
    gc.collect()
    assert board_ref() is None
    assert rules_ref() is None


def test_a_board_in_use_keeps_its_tables() -> None:
    board = ttr_core.parse_map(newyork_text(), "users-map.toml")
    state = ttr_core.new_game(board, 2, seed=1)
    gc.collect()
    again = ttr_core.new_game(board, 2, seed=2)
    assert again.rules is state.rules  # resolved once, while the board lives


def test_loading_many_map_files_keeps_a_bounded_number_of_boards(tmp_path: Path) -> None:
    text = newyork_text()
    refs = []
    for i in range(40):
        path = tmp_path / f"map{i}.toml"
        path.write_text(text.replace('name = "Ticket to Ride: New York"', f'name = "Copy {i}"'))
        board = ttr_core.load_map(path)
        ttr_core.random_playout(board, 2, seed=i)
        refs.append(weakref.ref(board))
    del board
    gc.collect()
    alive = sum(1 for ref in refs if ref() is not None)
    assert alive <= 16  # the load_map cache's bound; the rest were freed with their tables
    assert refs[-1]() is not None  # the most recent stay cached


def test_playing_many_ticket_deck_files_keeps_a_bounded_number_of_boards(
    tmp_path: Path,
) -> None:
    # Issue 24: every deck file ever played stayed cached on the shared
    # built-in board (1,000 files: 26.5 to 211 MB, growing linearly).
    board = ttr_core.load_map("newyork")
    text = ttr_core.ticket_deck_toml(board, board.tickets)
    refs = []
    for i in range(1000):
        path = tmp_path / f"deck{i}.toml"
        path.write_text(text, encoding="utf-8")
        state = ttr_core.new_game("newyork", 2, seed=i, tickets=path)
        assert state.board is not board and state.board.tickets == board.tickets
        refs.append(weakref.ref(state.board))
    assert ttr_core.new_game("newyork", 2, seed=0, tickets=path).board is state.board
    del state
    gc.collect()
    alive = sum(1 for ref in refs if ref() is not None)
    assert alive <= 16  # the deck cache's bound; the rest were freed with their tables
    assert refs[-1]() is not None  # the most recent stay cached
    decks = [key for key in board.derived if type(key) is tuple and key[0] == "tickets"]
    assert len(decks) <= 16
