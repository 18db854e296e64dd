"""The adapters on the playout object, and the perfect-recall information state tensor.

OpenSpiel's ``python_ttr`` and the PettingZoo environment play on a
:class:`ttr_core.Playout`; these tests check what that changed against
independent computations on the pure API, with the real ``pyspiel``: the
record of play (each action's public and private facts), the legal lists
answered in Python, clones; and the information state tensor's two
promises: perfect recall (distinct information state strings of a seat give
distinct tensors, equal strings equal tensors) and secrecy (what the seat
cannot see never changes its tensor).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-not-found, unused-ignore]
import pytest

import ttr_core
import ttr_core.openspiel as tos
from ttr_core import (
    ClaimRoute,
    DrawBlind,
    DrawFaceUp,
    DrawTickets,
    GameState,
    KeepTickets,
    Pass,
    apply,
    new_game,
)
from ttr_core.rules.action_ids import action_from_id

pytestmark = pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")


def reference_event(before: GameState, aid: int, action: Any, after: GameState) -> tuple[Any, ...]:
    """The record of one action, from the frozen states before and after it (the
    adapter's code before it played on a Playout, kept as the reference)."""
    names = before.board.card_names
    seat = action.player
    changed = (
        None
        if after.display == before.display
        else tuple(None if c is None else names[c] for c in after.display)
    )
    if isinstance(action, DrawBlind):
        old = before.players[seat].hand.counts
        new = after.players[seat].hand.counts
        drawn = [names[c] for c, (a, b) in enumerate(zip(old, new, strict=True)) if b > a]
        return (seat, aid, "blind", None, drawn[0] if drawn else None, changed)
    if isinstance(action, DrawFaceUp):
        card = before.display[action.slot]
        return (seat, aid, "face_up", None if card is None else names[card], None, changed)
    if isinstance(action, DrawTickets):
        pending = after.pending
        offered = pending.offered if pending is not None and pending.player == seat else ()
        return (seat, aid, "tickets", len(offered), tuple(offered), changed)
    if isinstance(action, KeepTickets):
        pending = before.pending
        offered = pending.offered if pending is not None else ()
        kept = tuple(sorted(action.tickets))
        return (seat, aid, "keep", len(kept), (tuple(offered), kept), changed)
    if isinstance(action, ClaimRoute):
        return (seat, aid, "claim", None, None, changed)
    if isinstance(action, Pass):
        return (seat, aid, "pass", None, None, changed)
    return (seat, aid, "variant", None, None, changed)


RECORD_CONFIGS = [
    ("newyork", 2, "default"),
    ("nederland", 2, "tolls+neutral"),
    ("europe", 3, "default"),
    ("usa", 2, "default"),
]


@pytest.mark.parametrize(("map_name", "players", "variants"), RECORD_CONFIGS)
def test_the_record_and_legal_lists_are_those_of_the_pure_api(
    map_name: str, players: int, variants: str
) -> None:
    rng = random.Random(4)
    for seed in (1, 2):
        params = {"map": map_name, "players": players, "seed": seed, "variants": variants}
        game = pyspiel.load_game(tos.SHORT_NAME, params)
        state = game.new_initial_state()
        pure = state.ttr_state
        wanted: list[tuple[Any, ...]] = []
        while not state.is_terminal():
            legal = state.legal_actions()
            # Answered in Python: OpenSpiel's own method (three calls back) says the same.
            assert legal == pyspiel.State.legal_actions(state)
            seat = state.current_player()
            assert state.legal_actions(seat) == legal
            other = (seat + 1) % players
            assert state.legal_actions(other) == pyspiel.State.legal_actions(state, other) == []
            aid = rng.choice(legal)
            action = action_from_id(pure, aid)
            after = apply(pure, action)
            wanted.append(reference_event(pure, aid, action, after))
            if rng.random() < 0.05:
                twin = state.clone()
                twin.apply_action(rng.choice(legal))  # must not touch state
            state.apply_action(aid)
            pure = after
            assert state.ttr_state == pure
            assert list(state._core.events) == wanted
        assert state.returns() == ttr_core.utilities(ttr_core.final_scores(pure).winners, players)
        assert pyspiel.State.legal_actions(state) == state.legal_actions() == []


def test_chance_nodes_list_the_bytes_for_any_player() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"map": "newyork", "players": 2})
    state = game.new_initial_state()
    assert state.legal_actions() == pyspiel.State.legal_actions(state) == list(range(256))
    assert state.legal_actions(0) == pyspiel.State.legal_actions(state, 0)


def test_a_clone_is_independent_of_its_original() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"map": "newyork", "players": 2, "seed": 5})
    state = game.new_initial_state()
    for _ in range(12):
        state.apply_action(state.legal_actions()[0])
    before = state.ttr_state
    text = state.information_state_string(0)
    twin = state.clone()
    for _ in range(6):
        twin.apply_action(twin.legal_actions()[-1])
    assert state.ttr_state is before and state.information_state_string(0) == text
    assert twin.ttr_state != before and len(twin.history()) == len(state.history()) + 6
    again = game.new_initial_state()  # the shared deal is untouched too
    assert again.ttr_state == new_game(game.board, 2, seed=5, variants=game.rules.variants)


# ---------------------------------------------------------------------------
# The information state tensor: perfect recall and secrecy
# ---------------------------------------------------------------------------

RECALL_CONFIGS = [
    ("newyork", 2, "default", 40),
    ("nederland", 3, "default", 6),
    ("amsterdam", 2, "default", 24),
    ("usa", 2, "none", 8),
]


def _tensor(state: Any, seat: int) -> bytes:
    return np.asarray(state.information_state_tensor(seat), dtype=np.float32).tobytes()


@pytest.mark.parametrize(("map_name", "players", "variants", "games"), RECALL_CONFIGS)
def test_the_information_state_tensor_has_perfect_recall(
    map_name: str, players: int, variants: str, games: int
) -> None:
    """Many games from one deal share their first actions and part ways later: every
    information state string of a seat has one tensor, and every tensor one string.

    So does each part alone: the string's view lines and the observation with
    the view's order facts, the string's record (starting hand and actions)
    and the tensor's record, so that a gap in either part shows even where the
    other part happens to tell the histories apart."""
    params = {"map": map_name, "players": players, "seed": 7, "variants": variants}
    game = pyspiel.load_game(tos.SHORT_NAME, params)
    size = game.observation_tensor_size()
    summary = game.recall.summary
    start, view = game.recall.start, game.recall.view
    parts: dict[tuple[int, str], bytes] = {}
    parts_back: dict[tuple[int, bytes], str] = {}
    by_string: dict[tuple[int, str], bytes] = {}
    by_tensor: dict[tuple[int, bytes], str] = {}
    old_part: dict[tuple[int, bytes], str] = {}
    told_apart_by_the_record = 0
    for number in range(games):
        rng = random.Random(number)
        state = game.new_initial_state()
        # Few choices early (the first legal ids), so that games share long prefixes.
        while not state.is_terminal() and len(state.history()) < 150:
            for seat in range(players):
                text = state.information_state_string(seat)
                tensor = _tensor(state, seat)
                assert by_string.setdefault((seat, text), tensor) == tensor, text
                assert by_tensor.setdefault((seat, tensor), text) == text, text
                view_text, record_text = text.split("\nhistory:\n")
                values = np.frombuffer(tensor, np.float32)
                record = values[size + start : size + view].tobytes()
                seen = np.concatenate([values[:size], values[size + view :]]).tobytes()
                for part, key in ((record_text, record), (view_text, seen)):
                    assert parts.setdefault((seat, part), key) == key, part
                    assert parts_back.setdefault((seat, key), part) == part, part
                # The tensor before this design: the observation and the summary counts.
                old = np.frombuffer(tensor, np.float32)[: size + summary].tobytes()
                if old_part.setdefault((seat, old), text) != text:
                    told_apart_by_the_record += 1
            legal = state.legal_actions()
            state.apply_action(legal[min(rng.randrange(3), len(legal) - 1)])
    assert len(by_string) == len(by_tensor) > games
    if map_name == "newyork":  # enough games from one deal to meet such pairs
        # The old tensor confused histories that the new one tells apart.
        assert told_apart_by_the_record > 0


SECRECY_CONFIGS = [
    ("newyork", 2, "default"),
    ("nederland", 3, "tolls"),
    ("europe", 3, "default"),
]


@pytest.mark.parametrize(("map_name", "players", "variants"), SECRECY_CONFIGS)
def test_what_a_seat_cannot_see_never_enters_its_tensor(
    map_name: str, players: int, variants: str
) -> None:
    game = pyspiel.load_game(
        tos.SHORT_NAME, {"map": map_name, "players": players, "variants": variants}
    )
    rng = random.Random(11)
    state = game.new_initial_state()
    hidden_differs = 0
    steps = 0
    while not state.is_terminal() and steps < 260:
        if state.is_chance_node():
            state.apply_action(rng.randrange(256))
            continue
        if steps % 20 == 5:
            for seat in range(players):
                sampled = state.resample_from_infostate(seat, rng.random)
                # The seat cannot tell them apart: the same string, the same tensors.
                assert sampled.information_state_string(seat) == (
                    state.information_state_string(seat)
                )
                assert _tensor(sampled, seat) == _tensor(state, seat)
                assert sampled.observation_tensor(seat) == state.observation_tensor(seat)
                other = (seat + 1) % players
                if sampled.ttr_state.players[other] != state.ttr_state.players[other]:
                    hidden_differs += 1
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    assert hidden_differs > 0  # the samples did change what the seat cannot see


def test_the_tensor_layout_is_named_and_sized() -> None:
    game = pyspiel.load_game(tos.SHORT_NAME, {"map": "usa", "players": 4})
    names = tos.history_features(game.board, 4)
    assert len(names) == len(set(names)) == game.recall.size
    assert game.information_state_tensor_size() == game.encoder.size + len(names)
    rows = [n for n in names if n.startswith("history.record[") and n.endswith("].seat")]
    assert len(rows) == game.max_game_length()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(0)
    state.apply_action(state.legal_actions()[0])
    values = dict(zip(names, state.information_state_tensor(0)[game.encoder.size :], strict=True))
    assert values["history.record[0].seat"] == 0.25  # seat 0 itself, of 4
    assert values["history.record[1].seat"] == 0.0  # no second action yet
    assert values["history.start_hand.known"] == 1.0
