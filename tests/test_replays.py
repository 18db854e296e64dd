"""Stored games replay exactly: the same seeds and choices give the same games.

``tests/data/replays.json`` holds random games recorded with an earlier
version (the commit named in the file): map, players, variants, seed, every
action taken, a SHA-256 digest of every list of legal actions met on the way
(their contents *and order*: random playouts pick by index), and the final
score sheets. A faster engine must reproduce all of it exactly.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import ttr_core

from .replay_codec import decode, encode

DATA = json.loads((Path(__file__).parent / "data" / "replays.json").read_text(encoding="utf-8"))


def _name(game: dict[str, Any]) -> str:
    variants = "default" if game["variants"] is None else "+".join(game["variants"]) or "none"
    return f"{game['map']}-{game['players']}p-{variants}-seed{game['seed']}"


@pytest.mark.parametrize("game", DATA["games"], ids=_name)
def test_a_stored_game_replays_exactly(game: dict[str, Any]) -> None:
    state = ttr_core.new_game(
        game["map"], game["players"], seed=game["seed"], variants=game["variants"]
    )
    digest = hashlib.sha256()
    for code in game["actions"]:
        assert state.pending is not None, "the game ended earlier than recorded"
        legal = ttr_core.legal_actions(state)
        digest.update(json.dumps([encode(a) for a in legal]).encode())
        action = decode(state.pending.player, code)
        assert action in legal
        state = ttr_core.apply(state, action)
    assert ttr_core.is_over(state), "the game did not end where it was recorded to"
    assert digest.hexdigest() == game["legal_sha256"], "the legal action lists differ"
    scores = ttr_core.final_scores(state)
    assert list(scores.totals) == game["totals"]
    assert list(scores.winners) == game["winners"]
    lines = [[[ln.kind, ln.label, ln.points] for ln in sheet.lines] for sheet in scores.sheets]
    assert lines == game["lines"]


def test_the_stored_games_cover_the_benchmark_maps() -> None:
    assert {g["map"] for g in DATA["games"]} >= {"newyork", "nederland", "usa"}
    assert sum(len(g["actions"]) for g in DATA["games"]) > 5000
