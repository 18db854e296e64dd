"""Issue 20, naming and drawing: variant actions in words (hook
``ttr_describe_action``, used by ``describe`` and ``ttr replay``, whose label
for a variant's decision between turns says so), map titles for variants'
score lines (``[rules.titles]``, ``GameRules.title``) and tokens the SVG
draws (hook ``ttr_tokens``)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import attrs
import pytest
from ttr_core_plugins.neutral import CHOOSE, ChooseNeutralRoute

import ttr_core
from ttr_core import (
    Action,
    ArgumentError,
    GameState,
    MapError,
    PlayerView,
    PluginError,
    Token,
    hookimpl,
)
from ttr_core.cli import main
from ttr_core.render import SEAT_COLORS, svg
from ttr_core.rules.narrate import describe_after

MAPS = Path(__file__).resolve().parent.parent / "maps"


# ---------------------------------------------------------------------------
# Variant actions in words
# ---------------------------------------------------------------------------


def _to_neutral_choice() -> tuple[GameState, list[Action]]:
    """A Nederland game with the neutral player, played at random up to the
    marker holder's first choice (seeds known to reach it after turn 14)."""
    state = ttr_core.new_game("nederland", players=2, seed=3, variants=["tolls", "neutral"])
    rng = random.Random(1)
    actions: list[Action] = []
    while state.pending is None or state.pending.kind != CHOOSE:
        action = rng.choice(ttr_core.legal_actions(state))
        actions.append(action)
        state = ttr_core.apply(state, action)
    return state, actions


@pytest.fixture(scope="module")
def neutral_choice() -> tuple[GameState, list[Action]]:
    return _to_neutral_choice()


def test_neutral_choice_in_words(neutral_choice: tuple[GameState, list[Action]]) -> None:
    state, _ = neutral_choice
    action = ttr_core.legal_actions(state)[0]
    assert isinstance(action, ChooseNeutralRoute)
    route = state.board.routes[action.route]
    expected = (
        f"Seat {action.player} chose the route {route.a}–{route.b} "
        f"({route.color} {route.length}) for the neutral player"
    )
    # Everything about the neutral player is public: every seat reads the same.
    for seat in (None, 0, 1):
        assert ttr_core.describe(state, action, seat) == expected


def test_replay_labels_a_decision_between_turns(
    neutral_choice: tuple[GameState, list[Action]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    state, actions = neutral_choice
    choice = ttr_core.legal_actions(state)[0]
    after = ttr_core.apply(state, choice)
    actions = [*actions, choice, ttr_core.legal_actions(after)[0]]
    path = tmp_path / "game.json"
    path.write_text(ttr_core.to_json(ttr_core.record_of(after, actions)), encoding="utf-8")
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    chosen = [i for i, line in enumerate(lines) if "for the neutral player" in line]
    assert len(chosen) == 1
    turn = state.turn  # turns played when the choice is made
    assert (
        f"between turns {turn} and {turn + 1} · Player {choice.player + 1} chose the route"
        in (lines[chosen[0]])
    )
    assert f"turn {turn} ·" in lines[chosen[0] - 1]  # the turn that ended before it
    assert "neutral claims" in lines[chosen[0] + 1]
    assert f"turn {turn + 1} ·" in lines[chosen[0] + 2]  # and the turn after it
    assert not any(re.search(r"\bafter \d", line) for line in lines)
    assert not any("ChooseNeutralRoute" in line for line in lines)


@attrs.frozen
class Peek(Action):
    """A test variant's action whose detail only its seat may know."""

    card: int


class Words:
    @hookimpl
    def ttr_describe_action(
        self, state: GameState, action: Action, after: GameState, full: bool
    ) -> str | None:
        if not isinstance(action, Peek):
            return None
        return f"peeked at card {action.card}" if full else "peeked at a card"


class BadWords:
    @hookimpl
    def ttr_describe_action(
        self, state: GameState, action: Action, after: GameState, full: bool
    ) -> object:
        return 42


@pytest.fixture
def variant() -> Iterator[list[str]]:
    """Register test plugins by name for one test; forgotten after it."""
    names: list[str] = []
    yield names
    for name in names:
        ttr_core.unregister_variant(name)


def _register(names: list[str], name: str, plugin: object) -> None:
    ttr_core.register_variant(name, plugin)
    names.append(name)


def test_describe_hook_is_told_what_the_reader_may_know(variant: list[str]) -> None:
    _register(variant, "words_test", Words())
    state = ttr_core.new_game("newyork", players=2, seed=1, variants=["words_test"])
    action = Peek(0, 5)
    assert describe_after(state, action, state) == "Seat 0 peeked at card 5"
    assert describe_after(state, action, state, 0) == "Seat 0 peeked at card 5"
    assert describe_after(state, action, state, 1) == "Seat 0 peeked at a card"


def test_an_action_no_variant_names_keeps_its_class() -> None:
    state = ttr_core.new_game("newyork", players=2, seed=1)
    assert describe_after(state, Peek(0, 5), state) == "Seat 0 played Peek(card=5)"
    assert describe_after(state, Peek(0, 5), state, 1) == "Seat 0 played Peek"


def test_describe_hook_result_is_checked(variant: list[str]) -> None:
    _register(variant, "badwords_test", BadWords())
    state = ttr_core.new_game("newyork", players=2, seed=1, variants=["badwords_test"])
    with pytest.raises(PluginError, match="ttr_describe_action"):
        describe_after(state, Peek(0, 5), state)


# ---------------------------------------------------------------------------
# Map titles for score lines
# ---------------------------------------------------------------------------


def _usa_with(tmp_path: Path, titles: str) -> Path:
    text = (MAPS / "usa.toml").read_text(encoding="utf-8")
    text = text.replace('id = "usa"', 'id = "usa-titled"', 1)
    text = text.replace('name = "Ticket to Ride: USA"', 'name = "Titled test map"', 1)
    text = re.sub(r"(?m)^aliases = .*\n", "", text, count=1)
    text = text.replace("\n[components]", f"\n{titles}\n[components]", 1)
    path = tmp_path / "usa-titled.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _labels(state: GameState) -> list[str]:
    return [line.label for line in ttr_core.score_sheets(state)[0].lines]


def test_map_titles_a_score_line(tmp_path: Path) -> None:
    board = ttr_core.load_map(
        _usa_with(tmp_path, '[rules.titles]\nlongest_route = "European Express"\n')
    )
    assert dict(board.titles) == {"longest_route": "European Express"}
    state = ttr_core.new_game(board, players=2, seed=1)
    assert state.rules.title("longest_route", "Longest path") == "European Express"
    assert state.rules.title("nosuch", "Default") == "Default"
    assert "European Express: 0" in _labels(state)
    assert not any(label.startswith("Longest path") for label in _labels(state))
    # Titles are names only: the fingerprint (and so every save) ignores them.
    plain = ttr_core.load_map(_usa_with(tmp_path, ""))
    assert ttr_core.map_fingerprint(plain) == ttr_core.map_fingerprint(board)


def test_without_a_title_the_line_keeps_its_name() -> None:
    state = ttr_core.new_game("usa", players=2, seed=1)
    assert state.board.titles == {}
    assert "Longest path: 0" in _labels(state)


@pytest.mark.parametrize(
    ("titles", "problem"),
    [
        ('[rules.titles]\n"no good!" = "X"\n', "key 'no good!'"),
        ("[rules.titles]\nlongest_route = 3\n", "non-empty string"),
        ('[rules.titles]\nlongest_route = "  "\n', "non-empty string"),
        ('[rules.titles]\nlongest_route = "a\\nb"\n', "longest_route"),
        ("[rules]\ntitles = 5\n", "must be a table"),
    ],
)
def test_bad_titles_are_refused(tmp_path: Path, titles: str, problem: str) -> None:
    path = _usa_with(tmp_path, titles)
    if titles.startswith("[rules]"):  # a second [rules] header: put the key in the first
        text = path.read_text(encoding="utf-8").replace(titles, "")
        text = text.replace("[rules]\n", "[rules]\ntitles = 5\n", 1)
        path.write_text(text, encoding="utf-8")
    with pytest.raises(MapError, match=re.escape(problem)):
        ttr_core.load_map(path)


def test_title_refuses_junk() -> None:
    rules = ttr_core.new_game("usa", players=2, seed=1).rules
    with pytest.raises(ArgumentError):
        rules.title(3, "x")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        rules.title("longest_route", None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Tokens in pictures
# ---------------------------------------------------------------------------


class Stations:
    """Two stations and a depot, the same from a state and from any view."""

    @hookimpl
    def ttr_tokens(self, game: GameState | PlayerView) -> Sequence[Token]:
        return [Token(0, 0, "station"), Token(0, None, "station"), Token(3, 1, "depot")]


class BadStations:
    @hookimpl
    def ttr_tokens(self, game: GameState | PlayerView) -> Sequence[Token]:
        return [Token(9999, 0, "station")]


def _tokens(picture: str) -> list[str]:
    return re.findall(
        r'<g class="token token-[^"]*" data-location="\d+" data-owner="\d*">', picture
    )


def test_tokens_are_drawn_in_their_owners_colours(variant: list[str]) -> None:
    _register(variant, "stations_test", Stations())
    state = ttr_core.new_game("newyork", players=2, seed=1, variants=["stations_test"])
    picture = svg(state)
    assert _tokens(picture) == [
        '<g class="token token-station" data-location="0" data-owner="0">',
        '<g class="token token-station" data-location="0" data-owner="">',
        '<g class="token token-depot" data-location="3" data-owner="1">',
    ]
    tokens = picture.split('<g class="tokens">')[1].split('<g class="panel"')[0]
    assert f'fill="{SEAT_COLORS[0]}"' in tokens
    assert f'fill="{SEAT_COLORS[1]}"' in tokens
    assert f"station of player 1 at {state.board.locations[0].name}" in tokens
    # One legend line per kind.
    assert picture.count('class="legend token-legend token-station"') == 1
    assert picture.count('class="legend token-legend token-depot"') == 1
    # A view draws the same tokens.
    assert _tokens(svg(ttr_core.player_view(state, 1))) == _tokens(picture)


def test_no_tokens_without_the_hook() -> None:
    state = ttr_core.new_game("newyork", players=2, seed=1)
    picture = svg(state)
    assert _tokens(picture) == []
    assert "token-legend" not in picture


def test_bad_tokens_are_refused(variant: list[str]) -> None:
    _register(variant, "badstations_test", BadStations())
    state = ttr_core.new_game("newyork", players=2, seed=1, variants=["badstations_test"])
    with pytest.raises(PluginError, match=r"ttr_tokens.*not a location id"):
        svg(state)
