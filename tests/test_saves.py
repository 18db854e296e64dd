"""JSON saves, game records and replays: round trips on every map and variant,
and untrusted input refused with a DataError naming the bad field."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import (
    Action,
    ClaimRoute,
    DataError,
    DrawBlind,
    FinalScores,
    GameRecord,
    GameState,
    KeepTickets,
    PlayerView,
    ScoreSheet,
    from_json,
    replay,
    to_json,
)
from ttr_core.cli import main

#: Every built-in map with its variant configurations worth saving.
CONFIGS: list[tuple[str, int, list[str] | None]] = [
    ("newyork", 2, None),
    ("newyork", 4, []),
    ("nederland", 3, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("nederland", 4, []),
    ("usa", 3, None),
    ("amsterdam", 4, None),
    ("newyork", 3, ["attractions", "swap"]),
    ("switzerland", 3, None),
    ("nordiccountries", 2, None),
    ("pennsylvania", 2, None),
    ("pennsylvania", 3, None),
    ("india", 4, None),
]


def states(map_: str, players: int, variants: list[str] | None, seed: int) -> Iterator[GameState]:
    """Every state of a random game."""
    state = ttr_core.new_game(map_, players, seed=seed, variants=variants)
    rng = random.Random(seed)
    yield state
    while not state.is_over:
        legal = ttr_core.legal_actions(state)
        state = ttr_core.apply(state, legal[rng.randrange(len(legal))])
        yield state


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize(("map_", "players", "variants"), CONFIGS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32), every=st.integers(5, 40))
def test_everything_round_trips(
    map_: str, players: int, variants: list[str] | None, seed: int, every: int
) -> None:
    history: list[Action] = []
    previous: GameState | None = None
    for index, state in enumerate(states(map_, players, variants, seed)):
        if previous is not None:
            action = next(
                a for a in ttr_core.legal_actions(previous) if ttr_core.apply(previous, a) == state
            )
            history.append(action)
            assert from_json(to_json(action), Action) == action
        if index % every == 0 or state.is_over:
            assert from_json(to_json(state), GameState) == state
            for seat in range(players):
                view = ttr_core.player_view(state, seat)
                assert from_json(to_json(view), PlayerView) == view
            for sheet in ttr_core.score_sheets(state):
                assert from_json(to_json(sheet), ScoreSheet) == sheet
        previous = state
    assert previous is not None
    scores = ttr_core.final_scores(previous)
    assert from_json(to_json(scores), FinalScores) == scores
    assert from_json(to_json(history), list[Action]) == history
    first = ttr_core.new_game(map_, players, seed=seed, variants=variants)
    record = ttr_core.data.records.record_of(first, history, {})
    back = from_json(to_json(record), GameRecord)
    assert back == record
    replayed = list(replay(back))
    assert replayed[-1] == previous
    assert len(replayed) == len(history) + 1


def test_random_playout_returns_its_actions_and_a_record() -> None:
    result = ttr_core.random_playout("nederland", 2, seed=4, variants=["tolls", "neutral"])
    assert len(result.history) == result.actions
    record = result.record
    assert record.map == "nederland" and record.players == 2 and record.seed == 4
    assert record.variants == ("tolls", "neutral")
    assert record.options["neutral"] == {"cars": 40}
    assert record.map_fingerprint == ttr_core.map_fingerprint(result.state.board)
    assert record.library_version == ttr_core.__version__
    # The built-in plugins ship with the library, at its version.
    version = ttr_core.__version__
    assert record.plugin_versions == {"tolls": version, "neutral": version}
    *_, final = replay(from_json(to_json(record), GameRecord))
    assert final == result.state
    assert ttr_core.final_scores(final) == result.scores


def test_action_json_uses_stable_tags_not_class_paths() -> None:
    assert json.loads(to_json(ClaimRoute(1, 4, "red", 1))) == {
        "type": "claim_route",
        "player": 1,
        "route": 4,
        "color": "red",
        "wilds": 1,
    }
    assert json.loads(to_json(KeepTickets(0, (3, 1)))) == {
        "type": "keep_tickets",
        "player": 0,
        "tickets": [1, 3],
    }
    from ttr_core_plugins.neutral import ChooseNeutralRoute

    assert json.loads(to_json(ChooseNeutralRoute(1, 7)))["type"] == "neutral.choose_route"


# ---------------------------------------------------------------------------
# A third party's variant saves too
# ---------------------------------------------------------------------------


@attrs.frozen
class Tally:
    """A third-party test variant's state."""

    counts: tuple[int, ...]
    last: str | None = None


@attrs.frozen
class Bump(Action):
    """A third-party test variant's action: bump the seat's tally, ending the turn."""

    by: int


class TallyVariant:
    @ttr_core.hookimpl
    def ttr_action_types(self) -> dict[str, type[Action]]:
        return {"tally.bump": Bump}

    @ttr_core.hookimpl
    def ttr_variant_state_types(self) -> dict[str, Any]:
        return {"tally": Tally}

    @ttr_core.hookimpl
    def ttr_setup(self, state: GameState) -> GameState:
        return state.with_variant("tally", Tally((0,) * state.num_players))

    @ttr_core.hookimpl
    def ttr_extra_actions(self, state: GameState) -> list[Action]:
        pending = state.pending
        if pending is None or pending.kind != "turn":
            return []
        return [Bump(pending.player, 1)]

    @ttr_core.hookimpl
    def ttr_apply_action(self, state: GameState, action: Action) -> GameState | None:
        if not isinstance(action, Bump):
            return None
        tally = state.variant("tally")
        counts = list(tally.counts)
        counts[action.player] += action.by
        state = state.with_variant("tally", Tally(tuple(counts), f"seat {action.player}"))
        return ttr_core.end_turn(state)


@pytest.fixture
def tally() -> Iterator[None]:
    ttr_core.register_variant("tally", TallyVariant())
    yield
    ttr_core.unregister_variant("tally")


def test_a_third_party_variant_state_and_action_round_trip(tally: None) -> None:
    state = ttr_core.new_game("newyork", 2, seed=3, variants=["tally"])
    for action in [KeepTickets(0, (state.pending.offered if state.pending else ()))]:
        state = ttr_core.apply(state, action)
    state = ttr_core.apply(state, KeepTickets(1, state.pending.offered if state.pending else ()))
    state = ttr_core.apply(state, Bump(0, 1))
    assert state.variant("tally") == Tally((1, 0), "seat 0")
    text = to_json(state)
    assert json.loads(text)["variant_state"] == {"tally": {"counts": [1, 0], "last": "seat 0"}}
    assert from_json(text, GameState) == state
    assert from_json(to_json(Bump(1, 1)), Action) == Bump(1, 1)
    bad = json.loads(text)
    bad["variant_state"]["tally"]["counts"][1] = "3"
    with pytest.raises(DataError) as err:
        from_json(json.dumps(bad), GameState)
    assert err.value.path == "variant_state.tally.counts[1]"


def test_a_game_with_undeclared_variant_state_cannot_be_saved() -> None:
    state = ttr_core.new_game("newyork", 2, seed=1, variants=[])
    state = state.with_variant("mystery", (1, 2))
    with pytest.raises(DataError, match="no variant of the game declares"):
        to_json(state)


# ---------------------------------------------------------------------------
# Untrusted input
# ---------------------------------------------------------------------------


def state_doc(seed: int = 1) -> dict[str, Any]:
    state = ttr_core.random_playout("nederland", 3, seed=seed).state
    back: dict[str, Any] = json.loads(to_json(state))
    return back


def mid_game(seed: int = 2) -> GameState:
    for index, state in enumerate(states("nederland", 3, None, seed)):
        if index == 60:
            return state
    raise AssertionError("the game ended early")


@pytest.mark.parametrize("seat", [0.0, True, "0", None, [0], {"a": 0}, -1.5])
def test_an_action_message_with_a_wrong_seat_type_names_the_field(seat: object) -> None:
    text = json.dumps({"type": "draw_blind", "player": seat})
    with pytest.raises(DataError) as err:
        from_json(text, Action)
    assert err.value.path == "player"


@pytest.mark.parametrize(
    ("message", "path", "fragment"),
    [
        ({"type": "os.system", "player": 0}, "", "unknown action type 'os.system'"),
        ({"player": 0}, "", "unknown action type None"),
        ({"type": "draw_blind", "player": 0, "extra": 1}, "", "unknown fields ['extra']"),
        ({"type": "draw_face_up", "player": 0}, "slot", "required field missing"),
        ({"type": "claim_route", "player": 0, "route": 1, "color": 3, "wilds": 0}, "color", ""),
        ({"type": "keep_tickets", "player": 0, "tickets": [1, "2"]}, "tickets", "whole number"),
        ({"type": "keep_tickets", "player": 0, "tickets": 5}, "tickets", "expected a list"),
        ([1, 2], "", "expected an action object"),
    ],
)
def test_malformed_action_messages(message: object, path: str, fragment: str) -> None:
    with pytest.raises(DataError) as err:
        from_json(json.dumps(message), Action)
    assert err.value.path == path
    assert fragment in str(err.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("{", "malformed JSON"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"type": "draw_blind", "player": NaN}', "NaN is not a number"),
        ('{"type": "draw_blind", "player": 0, "player": 1}', "more than once"),
        ('{"type": "draw_blind", "player": ' + "9" * 5000 + "}", "malformed JSON"),
        (" " * (ttr_core.data.messages.MAX_TEXT + 1), "at most"),
        (b"\xff\xfe", "not UTF-8"),
        (12, "expected JSON text"),
    ],
)
def test_malformed_text_is_refused(text: Any, fragment: str) -> None:
    with pytest.raises(DataError, match=fragment):
        from_json(text, Action)


def test_from_json_refuses_a_kind_it_cannot_read() -> None:
    with pytest.raises(DataError, match="cannot read"):
        from_json("{}", dict)


@pytest.mark.parametrize(
    ("change", "path", "fragment"),
    [
        (lambda d: d["players"][1]["hand"].update(red=-1), "players[1].hand.red", "negative"),
        (lambda d: d["players"][1]["hand"].update(red=1.0), "players[1].hand.red", "whole"),
        (
            lambda d: d["players"][1]["hand"].update(red=d["players"][1]["hand"]["red"] + 1),
            "deck",
            "red cards in the game",
        ),
        (
            lambda d: d["players"][1].update(routes=d["players"][0]["routes"][:1]),
            "players[1].routes[0]",
            "owned twice",
        ),
        (lambda d: d["players"][0].update(cars=True), "players[0].cars", "whole number"),
        (lambda d: d.update(seed="7"), "seed", "whole number"),
        (lambda d: d["owners"].append(-1), "owners", "one owner per route"),
        (
            lambda d: d.update(ticket_deck=d["ticket_deck"] + d["ticket_deck"][:1]),
            "ticket_deck",
            "one place",
        ),
        (lambda d: d.update(variants=["nope"]), "variants", "cannot be configured"),
        (lambda d: d["board"].update(fingerprint="0" * 64), "board", "content has changed"),
        (lambda d: d.update(format=2), "format", "reads format 1"),
        (lambda d: d.update(extra=1), "", "unknown fields ['extra']"),
        (lambda d: d["variant_state"]["tolls"].update(holdings=[1, 2]), "variant_state.tolls", ""),
        (lambda d: d.update(deck=["red", "purpleish"]), "deck[1]", "card name"),
    ],
)
def test_a_state_that_breaks_an_invariant_is_refused_with_its_path(
    change: Any, path: str, fragment: str
) -> None:
    doc = json.loads(to_json(mid_game()))
    assert doc["players"][0]["routes"], "the game has claims by now"
    change(doc)
    with pytest.raises(DataError) as err:
        from_json(json.dumps(doc), GameState)
    assert err.value.path.startswith(path), err.value
    assert fragment in str(err.value)


def test_a_users_own_map_saves_by_fingerprint(tmp_path: Any) -> None:
    from ttr_core.mapfiles.reading import _builtin_index

    text = _builtin_index()["newyork"].read_text(encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('id = "newyork"', 'id = "mine"'), encoding="utf-8")
    state = ttr_core.new_game(str(mine), 2, seed=1)
    saved = to_json(state)
    with pytest.raises(DataError, match="neither a built-in map nor one the app registered"):
        from_json(saved, GameState)
    assert from_json(saved, GameState, board=str(mine)) == state
    changed = tmp_path / "changed.toml"
    changed.write_text(
        mine.read_text(encoding="utf-8").replace("cars_per_player = 15", "cars_per_player = 16"),
        encoding="utf-8",
    )
    with pytest.raises(DataError, match="content has changed"):
        from_json(saved, GameState, board=str(changed))


def test_a_record_that_does_not_match_is_refused_saying_which() -> None:
    record = ttr_core.random_playout("newyork", 2, seed=1).record
    wrong_map = attrs.evolve(record, map_fingerprint="f" * 64)
    with pytest.raises(DataError) as err:
        list(replay(wrong_map))
    assert err.value.path == "map_fingerprint"
    with pytest.raises(DataError) as err:
        list(replay(attrs.evolve(record, variants=("attractions", "nope"))))
    assert err.value.path == "variants"
    with pytest.raises(DataError) as err:
        list(replay(attrs.evolve(record, options={"attractions": {"nope": 1}})))
    assert err.value.path == "options"
    with pytest.raises(DataError) as err:
        list(replay(attrs.evolve(record, format=9)))
    assert err.value.path == "format"
    bad_action = attrs.evolve(
        record, actions=(*record.actions[:3], DrawBlind(1), *record.actions[3:])
    )
    with pytest.raises(DataError) as err:
        list(replay(bad_action))
    assert err.value.path == "actions[3]"


# ---------------------------------------------------------------------------
# Fuzz: mutated saves, records and action messages
# ---------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)


def paths(doc: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON document."""
    found = [prefix]
    if isinstance(doc, dict):
        for key, value in doc.items():
            found += paths(value, (*prefix, key))
    elif isinstance(doc, list):
        for index, value in enumerate(doc[:6]):
            found += paths(value, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, doc: Any) -> Any:
    doc = json.loads(json.dumps(doc))
    for _ in range(draw(st.integers(1, 3))):
        every = paths(doc)
        path = draw(st.sampled_from(every))
        how = draw(st.sampled_from(["replace", "delete", "add", "wrap"]))
        if not path:
            doc = draw(JSON_VALUES) if how == "replace" else [doc]
            continue
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if how == "replace":
            parent[last] = draw(JSON_VALUES)
        elif how == "delete":
            del parent[last]
        elif how == "add" and isinstance(parent, dict):
            parent[draw(st.text(max_size=6))] = draw(JSON_VALUES)
        elif how == "add" and isinstance(parent, list):
            parent.append(draw(JSON_VALUES))
        else:
            parent[last] = [parent[last]]
    return doc


STATE_DOC = json.loads(
    to_json(ttr_core.random_playout("nederland", 2, 5, ["tolls", "neutral"]).state)
)
MID_DOC = json.loads(to_json(mid_game(7)))
RECORD_DOC = json.loads(to_json(ttr_core.random_playout("newyork", 2, seed=5).record))
VIEW_DOC = json.loads(to_json(ttr_core.player_view(mid_game(8), 1)))
ACTION_DOCS = [
    json.loads(to_json(a))
    for a in (ClaimRoute(0, 3, "red", 1), KeepTickets(1, (2, 5)), DrawBlind(0))
]


def loads_or_refuses(text: str, kind: Any) -> None:
    try:
        value = from_json(text, kind)
    except DataError:
        return
    if isinstance(value, GameState):
        # A state that loads is a real one: the engine can go on from it.
        legal = ttr_core.legal_actions(value)
        if legal:
            ttr_core.apply(value, legal[0])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=st.sampled_from([STATE_DOC, MID_DOC]).flatmap(mutated))
def test_mutated_saves_load_or_raise_data_error(doc: Any) -> None:
    loads_or_refuses(json.dumps(doc), GameState)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated(RECORD_DOC))
def test_mutated_records_load_or_raise_data_error(doc: Any) -> None:
    try:
        record = from_json(json.dumps(doc), GameRecord)
    except DataError:
        return
    try:
        for _ in replay(record):
            pass
    except DataError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(doc=mutated(VIEW_DOC))
def test_mutated_views_load_or_raise_data_error(doc: Any) -> None:
    loads_or_refuses(json.dumps(doc), PlayerView)


@settings(max_examples=1000, deadline=None)
@given(doc=st.sampled_from(ACTION_DOCS).flatmap(mutated))
def test_mutated_action_messages_load_or_raise_data_error(doc: Any) -> None:
    loads_or_refuses(json.dumps(doc), Action)


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------


def test_the_demo_saves_and_replays_a_game(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "game.json"
    args = ["--map", "nederland", "--players", "2", "--variants", "tolls,neutral", "--seed", "3"]
    assert main([*args, "--save", str(saved)]) == 0
    played = capsys.readouterr().out
    record = from_json(saved.read_text(encoding="utf-8"), GameRecord)
    assert record.seed == 3 and record.variants == ("tolls", "neutral")
    assert main(["replay", str(saved)]) == 0
    replayed = capsys.readouterr().out
    assert re.search(r"start · Player 1 kept \d tickets?: ", replayed)
    assert "neutral claims" in replayed
    # The replay ends with the same score breakdown the game printed (both
    # count players from 1).
    breakdown = played.rstrip().split("\n\nPlayer 1:", 1)[1].rstrip()
    assert replayed.rstrip().endswith(breakdown)
    saved.write_text(saved.read_text(encoding="utf-8").replace('"seed": 3', '"seed": "3"'))
    assert main(["replay", str(saved)]) == 2
    assert "seed: expected a whole number" in capsys.readouterr().err
    assert main(["--games", "2", "--save", str(saved)]) == 2


def test_where_a_board_is_drawn_is_not_part_of_its_fingerprint(tmp_path: Any) -> None:
    """Positions and aspect only draw the board: a save survives their correction,
    and a map without them saves as the same map."""
    import re

    from ttr_core.mapfiles.reading import _builtin_index

    text = _builtin_index()["newyork"].read_text(encoding="utf-8")
    assert "pos = [" in text and "aspect = " in text
    bare = re.sub(r",\s*pos = \[[^\]]*\]", "", text)
    bare = re.sub(r"(?m)^aspect = .*$", "", bare)
    moved = tmp_path / "moved.toml"
    moved.write_text(bare, encoding="utf-8")
    board = ttr_core.load_map(str(moved))
    assert all(location.pos is None for location in board.locations)
    assert board.aspect is None
    builtin = ttr_core.load_map("newyork")
    assert ttr_core.map_fingerprint(board) == ttr_core.map_fingerprint(builtin)
    saved = to_json(ttr_core.new_game("newyork", 2, seed=1))
    assert from_json(saved, GameState, board=str(moved)) == ttr_core.new_game(board, 2, seed=1)
