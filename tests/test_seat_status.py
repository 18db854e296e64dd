"""A seat's whole status in one call (issue 30, finding 7): ``seat_status``,
``legal_actions(state, seat=)``, ``describe_ending``, ``read_json``.

Found: each server assembled ``player_view`` + ``legal_actions`` filtered to
the seat + its score sheets + the final scores itself, and one that forgot
the filter sent the deciding seat's ticket offer to everybody.
"""

from __future__ import annotations

import json
import random
import warnings
from collections.abc import Iterator, Sequence
from typing import Any

import attrs
import pytest

import ttr_core
from ttr_core import (
    Action,
    ArgumentError,
    DataError,
    GameNotOverError,
    GameState,
    SeatStatus,
    Termination,
    hookimpl,
)

CONFIGS: list[tuple[str, int, list[str] | None]] = [
    ("newyork", 2, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("nederland", 3, None),
    ("europe", 3, None),
    ("amsterdam", 2, None),
    ("usa", 4, None),
]


def states(map_: str, players: int, variants: list[str] | None, seed: int = 1) -> Iterator[Any]:
    """Every state of a random game."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    while True:
        yield state
        legal = ttr_core.legal_actions(state)
        if not legal:
            return
        state = ttr_core.apply(state, rng.choice(legal))


def assembled(state: GameState, seat: int) -> SeatStatus:
    """The status as servers put it together by hand (docs/server.md before)."""
    legal = tuple(a for a in ttr_core.legal_actions(state) if a.player == seat)
    all_ids = ttr_core.legal_action_ids(state)
    ids = tuple(
        i for i, a in zip(all_ids, ttr_core.legal_actions(state), strict=True) if a in legal
    )
    return SeatStatus(
        seat=seat,
        ply=state.ply,
        view=ttr_core.player_view(state, seat),
        legal=legal,
        legal_ids=ids,
        sheets=ttr_core.player_score_sheets(state, seat),
        scores=ttr_core.final_scores(state) if state.is_over else None,
    )


@pytest.mark.parametrize(("map_", "players", "variants"), CONFIGS)
def test_seat_status_is_what_a_careful_server_assembles(
    map_: str, players: int, variants: list[str] | None
) -> None:
    offers_hidden = 0
    for step, state in enumerate(states(map_, players, variants)):
        if step % 9 and not state.is_over:
            continue
        for seat in range(players):
            status = ttr_core.seat_status(state, seat)
            assert status == assembled(state, seat)
            assert status.to_decide == (state.current_player == seat and not state.is_over)
            assert status.is_over == state.is_over
            assert ttr_core.legal_actions(state, seat) == status.legal
            if state.pending is not None and state.pending.offered and not status.to_decide:
                # Another seat's ticket choice: nothing of it in this status.
                assert status.legal == ()
                offers_hidden += 1
            text = ttr_core.to_json(status)
            assert ttr_core.from_json(text, SeatStatus) == status
            assert ttr_core.from_data(json.loads(text), SeatStatus) == status
    assert offers_hidden or map_ == "usa"


def test_legal_actions_for_a_seat_refuses_a_seat_that_is_none_of_the_games() -> None:
    state = ttr_core.new_game("newyork", 2, seed=3)
    assert ttr_core.legal_actions(state, 0) == ttr_core.legal_actions(state)
    assert ttr_core.legal_actions(state, 1) == ()
    for bad in (-1, 2, True, 1.0, "0", 2**70):
        with pytest.raises(ArgumentError, match="seat"):
            ttr_core.legal_actions(state, bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="seat"):
            ttr_core.seat_status(state, bad)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        ttr_core.seat_status("state", 0)  # type: ignore[arg-type]


def test_a_seat_status_read_back_must_hold_together() -> None:
    state = next(s for s in states("newyork", 3, None, seed=4) if s.ply == 5)
    deciding = state.current_player
    assert deciding is not None
    other = (deciding + 1) % 3
    good = ttr_core.to_data(ttr_core.seat_status(state, deciding))
    idle = ttr_core.to_data(ttr_core.seat_status(state, other))

    def changed(base: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
        return {**json.loads(json.dumps(base)), key: value}

    mutants = [
        (changed(good, "seat", other), "seat"),
        (changed(good, "ply", good["ply"] + 1), "ply"),
        (changed(good, "legal_ids", good["legal_ids"][:-1]), "legal_ids"),
        (changed(good, "legal_ids", [-1] * len(good["legal_ids"])), "legal_ids[0]"),
        (changed(idle, "legal", good["legal"]), "legal"),
        (changed(good, "sheets", good["sheets"][:2]), "sheets"),
        (
            changed(good, "scores", ttr_core.to_data(ttr_core.random_playout("newyork", 3).scores)),
            "scores",
        ),
        (changed(good, "extra", 1), ""),
        ({k: v for k, v in good.items() if k != "view"}, ""),
    ]
    for data, path in mutants:
        with pytest.raises(DataError) as refused:
            ttr_core.from_data(data, SeatStatus)
        assert refused.value.path.startswith(path), (path, refused.value)
    wrong_player = json.loads(json.dumps(good))
    wrong_player["legal"][0]["player"] = other
    with pytest.raises(DataError, match="legal"):
        ttr_core.from_data(wrong_player, SeatStatus)


def test_the_status_of_a_finished_game_holds_the_final_scores() -> None:
    result = ttr_core.random_playout("usa", 3, seed=8)
    for seat in range(3):
        status = ttr_core.seat_status(result.state, seat)
        assert status.scores == result.scores and status.legal == () and status.is_over
        assert status.sheets == ttr_core.score_sheets(result.state)
    state = ttr_core.new_game("newyork", 2, seed=2)
    ended = ttr_core.end_game(state, "abandoned")
    status = ttr_core.seat_status(ended, 1)
    assert status.scores is not None and status.scores.winners == ()


class _Mute:
    """A variant with an action of its own and no action ids for it."""

    @hookimpl
    def ttr_extra_actions(self, state: GameState) -> Sequence[Action] | None:
        pending = state.pending
        if pending is None or pending.kind != "turn":
            return None
        return [_Hum(pending.player)]

    @hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        return ttr_core.end_turn(state) if isinstance(action, _Hum) else None


@attrs.frozen
class _Hum(Action):
    """Hum (a variant action of the tests, without an id)."""


def test_a_variant_whose_actions_have_no_ids_gives_no_ids() -> None:
    ttr_core.register_variant("mute_status", _Mute())
    try:
        state = ttr_core.new_game("newyork", 2, seed=1, variants=["mute_status"])
        status = ttr_core.seat_status(state, 0)
        assert status.legal and status.legal_ids is None
    finally:
        ttr_core.unregister_variant("mute_status")


# -- describe_ending -------------------------------------------------------------------


def test_describe_ending_tells_every_ending() -> None:
    state = next(s for s in states("newyork", 3, None, seed=5) if s.ply == 12)
    told = {
        (how, seat): ttr_core.describe_ending(ttr_core.end_game(state, how, seat))
        for how, seat in [
            (Termination.RESIGNATION, 1),
            (Termination.TIMEOUT, 2),
            (Termination.ABANDONED, None),
        ]
    }
    assert told == {
        (Termination.RESIGNATION, 1): "Seat 1 resigned and loses: the game ends here.",
        (Termination.TIMEOUT, 2): "Seat 2 ran out of time and loses: the game ends here.",
        (Termination.ABANDONED, None): "The game was abandoned: it ends here, with no winner.",
    }
    played = ttr_core.random_playout("newyork", 2, seed=1).state
    assert played.termination == Termination.CARS
    assert ttr_core.describe_ending(played) == (
        "The game ended: a seat ran low on taxis and the final round was played."
    )
    stalled = attrs.evolve(played, termination=Termination.STALEMATE)
    assert "passes" in ttr_core.describe_ending(stalled)
    with pytest.raises(GameNotOverError):
        ttr_core.describe_ending(state)
    with pytest.raises(ArgumentError):
        ttr_core.describe_ending(None)  # type: ignore[arg-type]


# -- read_json ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"ply": 0, "ply": 1}', "more than once"),
        ('{"ply": NaN}', "NaN"),
        ('{"ply": Infinity}', "Infinity"),
        ("[1e999]", "out of range"),
        ("[" * 150 + "]" * 150, "nested too deeply"),
        (b"\xff{}", "not UTF-8"),
        ("{", "malformed JSON"),
        ("1" * 5000, "malformed JSON"),
        ("x" * (8 * 1024 * 1024 + 1), "at most"),
    ],
    ids=["duplicate", "nan", "infinity", "1e999", "deep", "utf-8", "cut", "digits", "large"],
)
def test_read_json_refuses_what_json_loads_lets_through(text: str | bytes, message: str) -> None:
    with pytest.raises(DataError, match=message) as refused:
        ttr_core.read_json(text)
    assert len(str(refused.value)) < 1000


def test_read_json_reads_plain_json() -> None:
    envelope = {"ply": 12, "action": {"type": "draw_blind", "player": 0}, "x": [1.5, None]}
    assert ttr_core.read_json(json.dumps(envelope)) == envelope
    assert ttr_core.read_json(json.dumps(envelope).encode()) == envelope
    action = ttr_core.from_data(ttr_core.read_json(json.dumps(envelope))["action"], Action)
    assert action == ttr_core.DrawBlind(0)
    with pytest.raises(DataError):
        ttr_core.read_json(12)  # type: ignore[arg-type]
