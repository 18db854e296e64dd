"""Generated tickets and ticket decks a user supplies."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

import ttr_core
from ttr_core import GeneratedTicketsWarning, MapError
from ttr_core.cli import main

from .test_hook_results import newyork_text

NEWYORK = ttr_core.load_map("newyork")


def test_the_rule_fits_every_printed_new_york_ticket() -> None:
    distances = ttr_core.shortest_spaces(NEWYORK)
    assert len(NEWYORK.tickets) == 18
    for ticket in NEWYORK.tickets:
        assert ticket.points == distances[(ticket.a, ticket.b)], ticket


def test_shortest_spaces_on_a_known_pair() -> None:
    distances = ttr_core.shortest_spaces(NEWYORK)
    # Lincoln Center - Central Park is a 2-space route; nothing shorter joins them
    assert distances[("Lincoln Center", "Central Park")] == 2
    assert distances[("Central Park", "Lincoln Center")] == 2
    assert distances[("Lincoln Center", "Brooklyn")] > 2


def test_every_generated_value_is_the_shortest_path_and_no_pair_repeats() -> None:
    distances = ttr_core.shortest_spaces(NEWYORK)
    deck = ttr_core.generate_tickets(NEWYORK, 40, seed=3)
    assert [t.id for t in deck] == list(range(40))
    assert all(t.points == distances[(t.a, t.b)] >= 2 for t in deck)
    pairs = [frozenset((t.a, t.b)) for t in deck]
    assert len(set(pairs)) == len(pairs)


def test_the_same_seed_gives_the_same_deck_and_another_seed_another() -> None:
    assert ttr_core.generate_tickets(NEWYORK, 10, seed=5) == ttr_core.generate_tickets(
        NEWYORK, 10, seed=5
    )
    assert ttr_core.generate_tickets(NEWYORK, 10, seed=5) != ttr_core.generate_tickets(
        NEWYORK, 10, seed=6
    )


def test_generated_tickets_are_spread_over_the_board() -> None:
    deck = ttr_core.generate_tickets(NEWYORK, 30, seed=1)
    uses = {loc.name: 0 for loc in NEWYORK.locations}
    for t in deck:
        uses[t.a] += 1
        uses[t.b] += 1
    assert max(uses.values()) - min(uses.values()) <= 2  # 60 ends over 15 places


def test_new_tickets_avoid_pairs_existing_tickets_join() -> None:
    made = ttr_core.generate_tickets(NEWYORK, 20, seed=2, existing=NEWYORK.tickets)
    printed = {frozenset((t.a, t.b)) for t in NEWYORK.tickets}
    assert not printed & {frozenset((t.a, t.b)) for t in made}
    assert made[0].id == len(NEWYORK.tickets)


def test_asking_for_more_pairs_than_the_board_has_is_refused() -> None:
    with pytest.raises(MapError, match="pairs of places are left"):
        ttr_core.generate_tickets(NEWYORK, 500)
    with pytest.raises(MapError, match="count must be"):
        ttr_core.generate_tickets(NEWYORK, -1)


# -- decks a user supplies ------------------------------------------------------------


def write_deck(tmp_path: Path, count: int, seed: int = 0) -> Path:
    path = tmp_path / "deck.toml"
    deck = ttr_core.generate_tickets(NEWYORK, count, seed=seed)
    path.write_text(ttr_core.ticket_deck_toml(NEWYORK, deck), encoding="utf-8")
    return path


def test_a_supplied_deck_replaces_the_maps_tickets(tmp_path: Path) -> None:
    path = write_deck(tmp_path, 12)
    state = ttr_core.new_game("newyork", 2, seed=1, tickets=path)
    assert len(state.board.tickets) == 12
    assert state.board.tickets == ttr_core.parse_ticket_deck(path.read_text(), NEWYORK)
    assert state.board.id == "newyork" and state.board is not NEWYORK
    again = ttr_core.new_game("newyork", 2, seed=2, tickets=path)
    assert again.board is state.board  # parsed once while the file is unchanged
    result = ttr_core.random_playout("newyork", 2, seed=1, tickets=path)
    assert ttr_core.is_over(result.state)


@pytest.mark.parametrize(
    ("body", "entry", "fragment"),
    [
        ('{ id = 0, a = "Nowhere", b = "Soho", points = 3 }', "ticket 0", "unknown location"),
        ('{ id = 0, a = "Soho", b = "Soho", points = 3 }', "ticket 0", "both ends"),
        ('{ id = 0, a = "Soho", b = "Chelsea", points = 0 }', "ticket 0", "'points'"),
        ('{ id = 0, a = "Soho", b = "Chelsea", points = "3" }', "ticket 0", "'points'"),
        ('{ id = 0, a = "soho", b = "Chelsea", points = 3 }', "ticket 0", "printed name"),
    ],
)
def test_a_malformed_deck_entry_is_refused_by_name(
    tmp_path: Path, body: str, entry: str, fragment: str
) -> None:
    text = ttr_core.ticket_deck_toml(NEWYORK, ttr_core.generate_tickets(NEWYORK, 10, seed=1))
    lines = text.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("  { id = 0,"))
    lines[first] = f"  {body},"
    text = "\n".join(lines) + "\n"
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(MapError) as err:
        ttr_core.new_game("newyork", 2, tickets=path)
    problems = [p for p in err.value.problems if p.entry == entry and fragment in p.message]
    assert problems, err.value
    assert problems[0].source == "bad.toml" and problems[0].line == 10


def test_deck_level_problems(tmp_path: Path) -> None:
    path = tmp_path / "d.toml"
    path.write_text('format = 1\n[deck]\nmap = "usa"\n[board]\ntickets = []\n')
    with pytest.raises(MapError) as err:
        ttr_core.new_game("newyork", 2, tickets=path)
    text = str(err.value)
    assert "d.toml" in text and "for map 'usa', not 'newyork'" in text
    duplicate = write_deck(tmp_path, 9).read_text().rstrip().removesuffix("]")
    duplicate += '  { id = 9, a = "Soho", b = "Chelsea", points = 4 },\n'
    duplicate += '  { id = 10, a = "Chelsea", b = "Soho", points = 4 },\n]\n'
    path.write_text(duplicate)
    with pytest.raises(MapError, match=r"ticket 10: joins 'Chelsea' and 'Soho' like ticket \d"):
        ttr_core.new_game("newyork", 2, tickets=path)
    small = write_deck(tmp_path, 5)
    with pytest.raises(MapError, match="cannot deal 2 to each of 4 players"):
        ttr_core.new_game("newyork", 2, tickets=small)
    with pytest.raises(MapError, match="cannot read"):
        ttr_core.new_game("newyork", 2, tickets=tmp_path / "missing.toml")


# -- a map whose printed deck is not fully known ----------------------------------------


def test_a_map_with_a_partial_deck_generates_the_rest_and_says_so_once(tmp_path: Path) -> None:
    ny = newyork_text().replace('returned = "bottom"', 'returned = "bottom"\ndeck = 30')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = ttr_core.parse_map(ny, "ny30.toml")
    said = [w for w in caught if issubclass(w.category, GeneratedTicketsWarning)]
    assert len(said) == 1 and len(caught) == 1
    assert "knows 18 of the 30 printed tickets" in str(said[0].message)
    assert issubclass(GeneratedTicketsWarning, UserWarning)
    assert len(board.tickets) == 30
    assert [bool(t.extra.get(ttr_core.GENERATED)) for t in board.tickets] == [False] * 18 + [
        True
    ] * 12
    # a complete supplied deck: no generated ticket, no warning
    path = write_deck(tmp_path, 30)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        state = ttr_core.new_game(board, 2, tickets=path)
    assert not caught and len(state.board.tickets) == 30
    assert not any(t.extra.get(ttr_core.GENERATED) for t in state.board.tickets)


def test_the_command_line_writes_and_plays_decks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "deck.toml"
    assert (
        main(["--map", "newyork", "--generate-tickets", "12", "--seed", "4", "--output", str(out)])
        == 0
    )
    assert ttr_core.parse_ticket_deck(out.read_text(), NEWYORK) == ttr_core.generate_tickets(
        NEWYORK, 12, seed=4
    )
    assert main(["--map", "newyork", "--tickets", str(out)]) == 0
    assert "Tickets:" not in capsys.readouterr().out
    assert main(["--map", "newyork", "--show-map"]) == 0
    shown = capsys.readouterr().out
    assert "15 locations, 41 routes (11 double), 84 spaces, 44 cards" in shown
    assert "18 tickets (18 printed, 0 generated)" in shown
