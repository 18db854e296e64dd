"""player_score_sheets(state, player): the score sheets a server may send one seat.

During play a seat sees, by each line's ``shown``: public lines on every sheet
(the core's start, routes and play lines; merchandise, the longest path,
loans); its own tickets but not the others'; never a line ranked by secret
values (the toll bonus). Once the game is over, every sheet in full.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import ArgumentError, GameState, ScoreLine, ScoreSheet
from ttr_core.model.scores import WITHHELD
from ttr_core.rules.scoring import player_score_sheets

from .helpers import new_started
from .test_determinize import BOARDS, CONFIGS, IDS, play_randomly
from .test_view_secrecy import hidden_variants

PUBLIC_CORE_KINDS = ("start", "routes", "play")
TICKET = "ticket"


def lines_of(sheet: ScoreSheet, kind: str) -> list[ScoreLine]:
    return [line for line in sheet.lines if line.kind == kind]


def is_subsequence(part: Sequence[ScoreLine], whole: Sequence[ScoreLine]) -> bool:
    rest = iter(whole)
    return all(any(line == other for other in rest) for line in part)


def check_as_seen(state: GameState, player: int) -> None:
    """``player``'s sheets during play against the full ones."""
    full = ttr_core.score_sheets(state)
    seen = player_score_sheets(state, player)
    assert [s.player for s in seen] == list(range(state.num_players))
    for sheet, whole in zip(seen, full, strict=True):
        own = sheet.player == player
        shown = [ln for ln in sheet.lines if ln.kind != WITHHELD]
        # Every line shown is true (a line of the full sheet, in its order) ...
        assert is_subsequence(shown, whole.lines)
        # ... the core's public lines and, on the seat's own sheet, its tickets are shown.
        core = [ln for ln in whole.lines if ln.kind in PUBLIC_CORE_KINDS]
        assert [ln for ln in shown if ln.kind in PUBLIC_CORE_KINDS] == core
        assert lines_of(sheet, TICKET) == (lines_of(whole, TICKET) if own else [])
        withheld = Counter(ln.kind for ln in whole.lines)
        withheld.subtract(ln.kind for ln in shown)
        if +withheld:
            (line,) = lines_of(sheet, WITHHELD)
            assert line.points == 0 and line.ref is None
            assert Counter(line.detail) == +withheld
            assert sheet.total == sum(ln.points for ln in shown)
        else:
            assert sheet == whole
        if own:
            tickets = [ln.ref for ln in lines_of(sheet, TICKET)]
            assert tickets == list(state.players[player].tickets)
            assert (sheet.tickets_completed, sheet.tickets_failed) == (
                whole.tickets_completed,
                whole.tickets_failed,
            )
        else:
            assert (sheet.tickets_completed, sheet.tickets_failed) == (0, 0)
            held = len(state.players[sheet.player].tickets)
            if held:
                assert f"{held} ticket" in lines_of(sheet, WITHHELD)[0].label
            for ticket in state.players[sheet.player].tickets:
                t = state.board.tickets[ticket]
                # A ticket as people read it ("A–B", "A – B", either way round);
                # a public line may name both places otherwise (Pennsylvania's
                # "Buffalo, Rochester & Pittsburgh Railway" shares).
                names = {f"{x}{dash}{y}" for x, y in ((t.a, t.b), (t.b, t.a)) for dash in "–-"}
                names |= {f"{x} {dash} {y}" for x, y in ((t.a, t.b), (t.b, t.a)) for dash in "–-"}
                texts = [text for ln in sheet.lines for text in (ln.label, *ln.detail)]
                assert not any(name in text for name in names for text in texts), t


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
@settings(max_examples=8)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 400), change=st.integers())
def test_during_play_a_seat_sees_its_own_tickets_and_the_public_lines(
    map: str, players: int, variants: Sequence[str] | None, seed: int, actions: int, change: int
) -> None:
    state = play_randomly(map, players, variants, seed, actions)
    if state.is_over:
        return
    rng = random.Random(change)
    for player in range(players):
        check_as_seen(state, player)
        # Nothing it shows depends on what the seat cannot see.
        seen = player_score_sheets(state, player)
        for what, changed in hidden_variants(state, player, rng):
            assert player_score_sheets(changed, player) == seen, what


def test_a_tolls_game_shows_loans_to_all_and_the_toll_bonus_to_none_before_the_end() -> None:
    state = play_randomly("nederland", 3, None, seed=5, actions=150)
    assert not state.is_over
    full = ttr_core.score_sheets(state)
    for player in range(3):
        for sheet, whole in zip(player_score_sheets(state, player), full, strict=True):
            assert lines_of(sheet, "loans") == lines_of(whole, "loans")
            assert not lines_of(sheet, "toll_bonus")
            assert "toll bonus" in lines_of(sheet, WITHHELD)[0].label
            assert "toll_bonus" in lines_of(sheet, WITHHELD)[0].detail


def test_the_longest_path_and_merchandise_are_public() -> None:
    usa = play_randomly("usa", 3, None, seed=2, actions=150)
    amsterdam = play_randomly("amsterdam", 3, None, seed=2, actions=60)
    for state, kind in ((usa, "longest_route"), (amsterdam, "merchandise")):
        assert not state.is_over
        full = ttr_core.score_sheets(state)
        for player in range(3):
            for sheet, whole in zip(player_score_sheets(state, player), full, strict=True):
                assert lines_of(sheet, kind) == lines_of(whole, kind)


class Bonus:
    """A variant whose line counts public facts (cars left), shown to all."""

    @ttr_core.hookimpl
    def ttr_score_lines(self, state: GameState) -> list[list[ScoreLine]]:
        return [[ScoreLine("bonus", f"Cars left: {p.cars}", p.cars // 10)] for p in state.players]


class TicketSum:
    """A variant whose line depends on each seat's secret tickets: its own seat's."""

    @ttr_core.hookimpl
    def ttr_score_lines(self, state: GameState) -> list[list[ScoreLine]]:
        return [
            [ScoreLine("sum", f"Sum: {sum(p.tickets)}", 1, shown="owner")] for p in state.players
        ]


class Secret:
    """A variant whose line is ranked by secret values: nobody's before the end."""

    @ttr_core.hookimpl
    def ttr_score_lines(self, state: GameState) -> list[list[ScoreLine]]:
        return [[ScoreLine("rank", "Ranked", 3, shown="end")] for _ in state.players]


class Sloppy:
    """A variant that marks a line with a value that means nothing."""

    @ttr_core.hookimpl
    def ttr_score_lines(self, state: GameState) -> list[list[ScoreLine]]:
        return [[ScoreLine("x", "X", 0, shown="friends")] for _ in state.players]


@pytest.fixture
def extra() -> Any:
    def register(plugin: object) -> GameState:
        ttr_core.register_variant("extra", plugin)
        return new_started(players=3, variants=["extra"])

    yield register
    ttr_core.unregister_variant("extra")


@pytest.mark.parametrize(
    ("plugin", "kind", "shown"),
    [
        (Bonus(), "bonus", {"own": True, "other": True}),
        (TicketSum(), "sum", {"own": True, "other": False}),
        (Secret(), "rank", {"own": False, "other": False}),
    ],
    ids=["all", "owner", "end"],
)
def test_a_variants_line_is_shown_in_play_as_it_says(
    extra: Any, plugin: object, kind: str, shown: Mapping[str, bool]
) -> None:
    state = extra(plugin)
    full = ttr_core.score_sheets(state)
    for sheet, whole in zip(player_score_sheets(state, 1), full, strict=True):
        if shown["own" if sheet.player == 1 else "other"]:
            assert lines_of(sheet, kind) == lines_of(whole, kind)
        else:
            assert not lines_of(sheet, kind)
            assert kind in lines_of(sheet, WITHHELD)[0].detail
    end = play_randomly("newyork", 3, ["extra"], seed=0, actions=100_000)
    assert end.is_over
    assert all(lines_of(s, kind) for s in player_score_sheets(end, 1))


def test_a_line_marked_with_an_unknown_shown_value_is_a_plugin_error(extra: Any) -> None:
    state = extra(Sloppy())
    with pytest.raises(ttr_core.PluginError, match="shown='friends'"):
        ttr_core.score_sheets(state)


@pytest.mark.parametrize(("map", "players", "variants"), CONFIGS, ids=IDS)
def test_once_the_game_is_over_every_seat_sees_every_sheet_in_full(
    map: str, players: int, variants: Sequence[str] | None
) -> None:
    state = play_randomly(map, players, variants, seed=7, actions=100_000)
    assert state.is_over
    full = ttr_core.score_sheets(state)
    assert full == ttr_core.final_scores(state).sheets
    for player in range(players):
        assert player_score_sheets(state, player) == full


def test_a_sheet_with_nothing_to_withhold_is_the_full_sheet() -> None:
    state = ttr_core.new_game(BOARDS["newyork"], 2, seed=0, variants=[])
    # No ticket kept yet, no variant: nothing is secret.
    assert player_score_sheets(state, 1) == ttr_core.score_sheets(state)


def test_the_withheld_line_counts_the_other_seats_tickets() -> None:
    state = new_started(players=2, variants=[])  # every starting ticket kept
    seen = player_score_sheets(state, 0)
    held = len(state.players[1].tickets)
    assert held > 1
    (line,) = lines_of(seen[1], WITHHELD)
    assert line.label == f"Shown at the end: {held} tickets"
    assert line.detail == ("ticket",) * held


@pytest.mark.parametrize("player", [-1, 2, True, 0.0, "1", None])
def test_a_seat_that_does_not_exist_is_an_argument_error(player: object) -> None:
    state = ttr_core.new_game(BOARDS["newyork"], 2, seed=0)
    with pytest.raises(ArgumentError, match="player must be a seat"):
        player_score_sheets(state, player)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="GameState"):
        player_score_sheets(ttr_core.player_view(state, 0), 0)  # type: ignore[arg-type]
