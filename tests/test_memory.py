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


def test_a_move_shares_every_part_it_does_not_change() -> None:
    """What a retained state costs: the kernel publishes only what an action
    changed, and shares every other tuple, seat and hand with the state before
    (so a game's states together hold little more than their differences)."""
    rng = __import__("random").Random(5)
    tickets = (ttr_core.DrawTickets, ttr_core.KeepTickets)
    for name, players in (("newyork", 2), ("usa", 4), ("nederland", 3)):
        state = ttr_core.new_game(name, players, seed=7)
        while not ttr_core.is_over(state):
            action = rng.choice(ttr_core.legal_actions(state))
            after = ttr_core.apply(state, action)
            kind = type(action)
            if kind is not ttr_core.ClaimRoute:
                assert after.owners is state.owners, action
            if kind not in tickets:
                assert after.ticket_deck is state.ticket_deck, action
                assert after.ticket_discard is state.ticket_discard, action
            else:
                assert after.deck is state.deck and after.display is state.display, action
                assert after.discard is state.discard, action
            if kind is ttr_core.KeepTickets and action.tickets == frozenset(
                state.pending.offered  # type: ignore[union-attr]
            ):
                assert after.ticket_deck is state.ticket_deck, "nothing returned: the same deck"
            for seat, (was, now) in enumerate(zip(state.players, after.players, strict=True)):
                if seat != action.player and kind is not ttr_core.ClaimRoute:
                    assert now is was, f"seat {seat} copied by {action}"
                if kind in tickets:
                    assert now.hand is was.hand, f"seat {seat}'s hand copied by {action}"
            state = after
