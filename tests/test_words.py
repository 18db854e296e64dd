"""The words people read (issue 34, item 7): each map's own word for its pieces
(New York's taxis, Amsterdam's carts) wherever pieces are counted for people,
and English articles ("an orange card", never "a orange card")."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

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
