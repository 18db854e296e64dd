"""Ending a game early: resignation, timeout, abandonment (issue 19; the rule is
in docs/rules.md, "Ending a game early", and ttr_core.rules.ending)."""

from __future__ import annotations

import random
import warnings
from typing import Any

import pytest

import ttr_core
from ttr_core import ArgumentError, IllegalAction, Reason, Termination, end_game
from ttr_core.hooks.checks import ticket_places
from ttr_core.rules.scoring import winners as rule_winners

EVERY_MAP: list[tuple[str, int, Any]] = [
    ("newyork", 2, None),
    ("newyork", 4, None),
    ("nederland", 4, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("amsterdam", 3, None),
    ("usa", 3, None),
]


def _midgame(map_name: str, players: int, variants: Any, seed: int, plies: int) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    while state.ply < plies:
        after = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        if after.is_over:
            break  # a position before the end
        state = after
    return state


@pytest.mark.parametrize(("map_name", "players", "variants"), EVERY_MAP)
@pytest.mark.parametrize("plies", [0, 1, 25, 70])
def test_a_resignation_on_every_map_ends_the_game_with_the_documented_scores(
    map_name: str, players: int, variants: Any, plies: int
) -> None:
    state = _midgame(map_name, players, variants, seed=plies + players, plies=plies)
    assert not state.is_over
    for seat in range(players):
        ended = end_game(state, Termination.RESIGNATION, seat)
        assert ended.is_over and ended.current_player is None
        assert ended.termination == Termination.RESIGNATION and ended.forfeit == seat
        assert ttr_core.legal_actions(ended) == ()
        # Nothing else changed but the tickets on offer, returned unchosen.
        assert ended.players == state.players and ended.owners == state.owners
        assert ended.ply == state.ply
        assert sorted(ticket_places(ended)) == list(range(len(state.board.tickets)))
        scores = ttr_core.final_scores(ended)
        assert scores.termination == Termination.RESIGNATION
        # Scored as the game stands: the same sheets as a provisional count.
        assert scores.sheets == ttr_core.score_sheets(ended)
        # The resigning seat loses; the best of the others win by the usual rule.
        others = [s for s in scores.sheets if s.player != seat]
        assert seat not in scores.winners
        assert scores.winners == rule_winners(others, state)
        assert scores.winners and all(w != seat for w in scores.winners)
        # The state reads back, and views show the ending.
        assert ttr_core.from_json(ttr_core.to_json(ended), ttr_core.GameState) == ended
        view = ttr_core.player_view(ended, (seat + 1) % players)
        assert view.termination == Termination.RESIGNATION and view.forfeit == seat
        assert view.is_over


def test_the_resigning_seat_loses_even_when_it_leads() -> None:
    state = _midgame("newyork", 2, None, seed=3, plies=80)
    totals = [s.total for s in ttr_core.score_sheets(state)]
    leader = max(range(2), key=totals.__getitem__)
    ended = end_game(state, "resignation", leader)
    assert ttr_core.final_scores(ended).winners == (1 - leader,)


def test_a_timeout_is_scored_as_a_resignation_of_that_seat() -> None:
    state = _midgame("usa", 4, None, seed=5, plies=40)
    resigned = ttr_core.final_scores(end_game(state, "resignation", 2))
    timed_out = ttr_core.final_scores(end_game(state, Termination.TIMEOUT, 2))
    assert timed_out.termination == Termination.TIMEOUT
    assert (timed_out.sheets, timed_out.winners) == (resigned.sheets, resigned.winners)


def test_an_abandoned_game_has_no_winner() -> None:
    state = _midgame("nederland", 3, None, seed=2, plies=30)
    ended = end_game(state, "abandoned")
    scores = ttr_core.final_scores(ended)
    assert scores.winners == () and scores.termination == Termination.ABANDONED
    assert ended.forfeit is None


def test_a_seat_may_resign_while_another_decides_and_during_the_ticket_choice() -> None:
    state = ttr_core.new_game("newyork", 3, seed=1)
    assert state.pending is not None and state.pending.kind == "start_tickets"
    ended = end_game(state, "resignation", 2)
    # Every offer (pending and still to choose) went back to the ticket deck.
    assert ended.start_offers == () and ended.pending is None
    assert len(ended.ticket_deck) == len(state.board.tickets)


@pytest.mark.parametrize(
    ("how", "seat", "message"),
    [
        ("resignation", None, "names the seat that loses"),
        ("timeout", 5, "names the seat that loses"),
        ("timeout", True, "names the seat that loses"),
        ("abandoned", 0, "names no seat"),
        ("cars", 0, "how must be one of"),
        ("stalemate", None, "how must be one of"),
        ("x" * 10_000, None, "how must be one of"),
        (3, 0, "how must be one of"),
    ],
)
def test_bad_endings_are_argument_errors(how: Any, seat: Any, message: str) -> None:
    state = ttr_core.new_game("newyork", 2, seed=1)
    with pytest.raises(ArgumentError, match=message) as refused:
        end_game(state, how, seat)
    assert len(str(refused.value)) < 200


def test_a_game_over_cannot_end_again() -> None:
    state = end_game(ttr_core.new_game("newyork", 2, seed=1), "abandoned")
    with pytest.raises(IllegalAction) as refused:
        end_game(state, "resignation", 0)
    assert refused.value.reason == Reason.GAME_OVER
    with pytest.raises(ArgumentError):
        end_game("state", "abandoned")  # type: ignore[arg-type]


def test_a_record_holds_the_ending_and_restores_it() -> None:
    state = ttr_core.new_game("nederland", 2, seed=9, variants=["tolls", "neutral"])
    rng = random.Random(9)
    actions = []
    while state.ply < 30:
        action = rng.choice(ttr_core.legal_actions(state))
        state = ttr_core.apply(state, action)
        actions.append(action)
    ended = end_game(state, "timeout", 1)
    record = ttr_core.record_of(ended, actions)
    assert (record.termination, record.forfeit) == (Termination.TIMEOUT, 1)
    read = ttr_core.from_json(ttr_core.to_json(record), ttr_core.GameRecord)
    assert read == record
    assert ttr_core.restore(read) == ended
    assert list(ttr_core.replay(read))[-1] == ended
    assert ttr_core.restore(ttr_core.from_jsonl(ttr_core.to_jsonl(record))) == ended


def test_states_with_an_inconsistent_ending_are_refused() -> None:
    import json

    ended = end_game(ttr_core.new_game("newyork", 2, seed=1), "resignation", 0)
    data = json.loads(ttr_core.to_json(ended))
    for forfeit in (None, 2):
        data["forfeit"] = forfeit
        with pytest.raises(ttr_core.DataError, match="forfeit"):
            ttr_core.from_json(json.dumps(data), ttr_core.GameState)
    playing = json.loads(ttr_core.to_json(ttr_core.new_game("newyork", 2, seed=1)))
    playing["forfeit"] = 0
    with pytest.raises(ttr_core.DataError, match="forfeit"):
        ttr_core.from_json(json.dumps(playing), ttr_core.GameState)


@pytest.mark.parametrize(
    ("how", "seat", "said", "winner"),
    [
        (
            "resignation",
            1,
            "Player 2 resigned and loses: the game ends here.",
            "Winner: Player 1",
        ),
        ("timeout", 0, "Player 1 ran out of time and loses", "Winner: Player 2"),
        ("abandoned", None, "The game was abandoned", "No winner."),
    ],
)
def test_ttr_replay_tells_how_the_game_ended_early(
    tmp_path: Any, how: str, seat: Any, said: str, winner: str
) -> None:
    import subprocess
    import sys

    state = _midgame("newyork", 2, None, seed=3, plies=20)
    rng = random.Random(3)
    actions = []
    again = ttr_core.new_game("newyork", 2, seed=3)
    while again.ply < state.ply:  # _midgame's actions, played again
        action = rng.choice(ttr_core.legal_actions(again))
        again = ttr_core.apply(again, action)
        actions.append(action)
    assert again == state
    path = tmp_path / "game.json"
    path.write_text(ttr_core.to_json(ttr_core.record_of(end_game(state, how, seat), actions)))
    run = subprocess.run(
        [sys.executable, "-m", "ttr_core", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert said in run.stdout
    assert run.stdout.rstrip().endswith(winner)


# -- issue 30, finding 4: the invariants respect every documented ending ---------------------

ENDINGS_EVERYWHERE: list[tuple[str, int, Any]] = [
    *EVERY_MAP,
    ("europe", 3, None),
    ("europe", 2, None),
    ("amsterdam", 2, []),
]


@pytest.mark.parametrize(("map_name", "players", "variants"), ENDINGS_EVERYWHERE)
def test_no_invariant_calls_a_documented_ending_broken(
    map_name: str, players: int, variants: Any
) -> None:
    # check_state reported "winners () for totals (4, 2)" after an abandonment and
    # "winners (1,) for totals (4, 2)" after the leader resigned.
    from ttr_core.checking.registry import check_state

    for plies in (0, 3, 30, 90):
        state = _midgame(map_name, players, variants, seed=plies + 7 * players, plies=plies)
        totals = [sheet.total for sheet in ttr_core.score_sheets(state)]
        leader = totals.index(max(totals))
        for how, seat in [
            (Termination.ABANDONED, None),
            (Termination.RESIGNATION, leader),
            (Termination.TIMEOUT, leader),
            (Termination.RESIGNATION, (leader + 1) % players),
        ]:
            ended = end_game(state, how, seat)
            assert check_state(ended) == [], (how, seat, plies)
            assert ttr_core.from_json(ttr_core.to_json(ended), ttr_core.GameState) == ended


def test_the_winners_invariant_still_catches_wrong_winners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import attrs

    from ttr_core.checking import invariants

    state = _midgame("newyork", 2, None, seed=5, plies=20)
    totals = [sheet.total for sheet in ttr_core.score_sheets(state)]
    leader = totals.index(max(totals))
    resigned = end_game(state, Termination.RESIGNATION, leader)
    abandoned = end_game(state, Termination.ABANDONED)
    assert list(invariants.score_breakdown(resigned)) == []
    real = invariants.final_scores

    def ignoring_endings(state: Any) -> Any:
        # Scores by the rule for a game played to its end: the resigning leader
        # wins, an abandoned game has winners.
        played = real(attrs.evolve(state, termination=Termination.CARS, forfeit=None))
        return attrs.evolve(played, termination=state.termination)

    monkeypatch.setattr(invariants, "final_scores", ignoring_endings)
    for ended in (resigned, abandoned):
        (problem,) = invariants.score_breakdown(ended)
        assert problem.startswith("winners ")
