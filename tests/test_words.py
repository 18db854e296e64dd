"""The words people read (issue 34, item 7): each map's own word for its pieces
(New York's taxis, Amsterdam's carts) wherever pieces are counted for people,
and English articles ("an orange card", never "a orange card"). Round two:
players counted from 1 in every command ("Player 1", never "Seat 0"), tickets
named by their ends and points (never by their ids), and failure states in
words (not the engine decisions' codes)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

import ttr_core
from ttr_core.cli import main
from ttr_core.render import svg

MAPS = ("newyork", "amsterdam", "usa", "nederland")


def played(map_name: str, seed: int, actions: int) -> tuple[ttr_core.GameState, list[str]]:
    """A random game of ``actions`` actions and every action described in full."""
    state = ttr_core.new_game(map_name, 2, seed=seed)
    rng = random.Random(seed)
    words = []
    for _ in range(actions):
        if state.is_over:
            break
        action = rng.choice(ttr_core.legal_actions(state))
        words.append(ttr_core.describe(state, action))
        state = ttr_core.apply(state, action)
    return state, words


@pytest.mark.parametrize("map_name", MAPS)
def test_a_card_before_a_vowel_takes_an(map_name: str) -> None:
    _, words = played(map_name, 3, 120)
    drawn = [w for w in words if " card" in w]
    assert drawn
    for line in words:
        assert not re.search(r"\ba [aeiou]\w* card", line), line
    if map_name == "newyork":  # New York has orange cards: drawn in 120 random actions
        assert any(re.search(r"\ban orange card\b", w) for w in words), words


@pytest.mark.parametrize("map_name", MAPS)
def test_the_picture_counts_the_maps_own_pieces(map_name: str) -> None:
    state, _ = played(map_name, 4, 40)
    root = ET.fromstring(svg(state).encode("utf-8"))
    text = " ".join("".join(t.itertext()) for t in root.iter("{http://www.w3.org/2000/svg}text"))
    word = state.board.pieces
    assert re.search(rf"\d+ {word}\b", text), text[-400:]
    if word != "cars":
        assert not re.search(r"\d+ cars?\b", text), text[-400:]


@pytest.mark.parametrize("map_name", MAPS)
def test_show_map_counts_the_maps_own_pieces(
    map_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--map", map_name, "--show-map"]) == 0
    shown = capsys.readouterr().out
    board = ttr_core.load_map(map_name)
    line = next(line for line in shown.splitlines() if " players, " in line)
    assert line.endswith(f"players, {board.rules.cars_per_player} {board.pieces} each"), line


# ---------------------------------------------------------------------------
# Issue 34, round two: players counted from 1 in every command, tickets named as
# people read them, failure states in words.
# ---------------------------------------------------------------------------

#: Words only the library's internals use: a seat counted from 0 ("Seat 0",
#: "Winner: seat 1"), ids of tickets or routes ("kept tickets 7 (", "route 12"),
#: the engine decisions' codes ("E3").
SEAT_FROM_0 = re.compile(r"\b[Ss]eat \d")
IDS = re.compile(r"\btickets? \d+ \(|\b(?:route|location|slot) \d")
CODES = re.compile(r"\bE[1-6]\b")
A_VOWEL = re.compile(r"\ba [aeiouAEIOU]\w* card")


def _whole_game(
    map_name: str, players: int, seed: int
) -> list[tuple[ttr_core.GameState, ttr_core.Action]]:
    """Every (state, action) of a random game played to its end (or 3,000 actions)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_name, players, seed=seed)
    rng = random.Random(seed)
    steps = []
    for _ in range(3000):
        if state.is_over:
            break
        action = rng.choice(ttr_core.legal_actions(state))
        steps.append((state, action))
        state = ttr_core.apply(state, action)
    return steps


@pytest.mark.parametrize("map_name", ttr_core.available_maps())
def test_describe_names_no_internal_id_and_takes_an_before_a_vowel(map_name: str) -> None:
    board = ttr_core.load_map(map_name)
    told = 0
    kept = []
    for seed, players in ((1, 2), (2, board.rules.max_players)):
        for state, action in _whole_game(map_name, players, seed):
            for seat in (None, 0):
                line = ttr_core.describe(state, action, seat=seat)
                assert not A_VOWEL.search(line), line
                assert not IDS.search(line), line
                told += 1
                if seat is None and isinstance(action, ttr_core.KeepTickets):
                    kept.append((state, action, line))
    assert told > 200 and kept
    for state, action, line in kept:
        # "kept 2 tickets: Amsterdam–Utrecht (18), Utrecht–Zwolle (5)": every ticket
        # by its ends and points, none by its id.
        n = len(action.tickets)
        assert f" kept {n} ticket{'' if n == 1 else 's'}: " in line, line
        for ticket in action.tickets:
            assert state.board.tickets[ticket].text("–") in line, line


def _record(tmp_path: Any) -> Any:
    """A 3-player demo game of New York, saved."""
    saved = tmp_path / "game.json"
    assert main(["--map", "newyork", "--players", "3", "--seed", "5", "--save", str(saved)]) == 0
    return saved


def test_ttr_replay_counts_players_from_1(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = _record(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(saved)]) == 0
    everything = capsys.readouterr().out
    assert main(["replay", str(saved), "--seat", "2"]) == 0
    as_player_2 = capsys.readouterr().out
    for out in (everything, as_player_2):
        assert not SEAT_FROM_0.search(out), SEAT_FROM_0.findall(out)
        assert not IDS.search(out) and not A_VOWEL.search(out)
        assert "Player 1 " in out and "Player 3 " in out and "Player 0" not in out
        assert re.search(r"^Player 1: -?\d+ points$", out, re.MULTILINE), out[-600:]
        assert re.search(r"^Winners?: Player \d", out, re.MULTILINE), out[-200:]
    # --seat 2 is Player 2 (seat 1): its own tickets named, Player 1's not.
    assert re.search(r"Player 2 kept \d tickets?: ", as_player_2)
    assert re.search(r"Player 1 kept \d tickets?\n", as_player_2)
    assert re.search(r"Player 1 kept \d tickets?: ", everything)


@pytest.mark.parametrize("seat", ["0", "4", "-1"])
def test_ttr_replay_takes_players_from_1_to_n(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], seat: str
) -> None:
    saved = _record(tmp_path)
    capsys.readouterr()
    assert main(["replay", str(saved), "--seat", seat]) == 2
    err = capsys.readouterr().err
    assert f"--seat takes a player from 1 to 3, not {seat}" in err, err


@pytest.mark.parametrize(("how", "seat"), [("resignation", 1), ("timeout", 0)])
def test_ttr_replay_tells_an_early_ending_with_players_from_1(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], how: str, seat: int
) -> None:
    steps = _whole_game("newyork", 2, 3)[:20]
    state = ttr_core.apply(*steps[-1])
    ended = ttr_core.end_game(state, how, seat)
    path = tmp_path / "game.json"
    path.write_text(ttr_core.to_json(ttr_core.record_of(ended, [a for _, a in steps])))
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert not SEAT_FROM_0.search(out), SEAT_FROM_0.findall(out)
    assert f"Player {seat + 1} " in out and f"Winner: Player {2 - seat}" in out, out[-400:]


def test_ttr_simulate_says_its_failure_states_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ttr_core.cli.simulate import main as simulate

    argv = ["--map", "newyork", "--games", "4", "--workers", "1", "--no-progress"]
    assert simulate(argv) == 0
    out = capsys.readouterr().out
    assert "failure states" in out and "a seat had only Pass" in out
    assert not CODES.search(out), CODES.findall(out)
    # Players counted from 1, as the demo counts them.
    assert re.search(r"^player\s+games", out, re.MULTILINE), out
    assert re.search(r"^1\s+4\s", out, re.MULTILINE) and not re.search(r"^0\s+4\s", out, re.M)


def test_ttr_verify_says_its_counts_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--map", "newyork", "--games", "2"]) == 0
    out = capsys.readouterr().out
    assert not CODES.search(out), CODES.findall(out)
