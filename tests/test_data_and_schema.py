"""JSON as data (to_data / from_data), the client's board description and the
JSON Schemas: every message of real games validates, shape mutants are refused
by both the library and the schema, and the shipped schema files are current."""

from __future__ import annotations

import copy
import functools
import json
import math
import pickle
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import ttr_core
from ttr_core import (
    Action,
    Board,
    DataError,
    FinalScores,
    GameRecord,
    GameState,
    PlayerView,
    ScoreSheet,
    SeatStatus,
    board_data,
    from_data,
    from_json,
    json_schema,
    to_data,
    to_json,
)
from ttr_core.data.schema import SCHEMA_FILES, schema_texts, shipped_variants

SCHEMAS = Path(ttr_core.__file__).parent / "schemas"

#: Every built-in map, with the variant combinations worth checking.
CONFIGS: list[tuple[str, int, list[str] | None]] = [
    ("newyork", 2, None),
    ("newyork", 3, ["attractions", "longest_route"]),
    ("nederland", 3, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("nederland", 4, []),
    ("usa", 3, None),
    ("amsterdam", 4, None),
    ("amsterdam", 2, ["merchandise"]),
]


@functools.cache
def game(map_: str, players: int, variants: tuple[str, ...] | None, seed: int = 3) -> Any:
    """A random game: its record and every state."""
    result = ttr_core.random_playout(
        map_, players, seed=seed, variants=None if variants is None else list(variants)
    )
    return result.record, tuple(ttr_core.replay(result.record))


@functools.cache
def validator(kind: Any) -> jsonschema.protocols.Validator:
    schema = json_schema(kind)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def shipped_validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / f"{name}.json").read_text(encoding="utf-8"))
    return jsonschema.Draft202012Validator(schema)


def messages(
    map_: str, players: int, variants: tuple[str, ...] | None
) -> Iterator[tuple[Any, Any]]:
    """(kind, message) for the messages of a random game, sampled."""
    record, states = game(map_, players, variants)
    yield list[Action], to_data(record.actions)
    yield GameRecord, to_data(record)
    for action in record.actions[::7]:
        yield Action, to_data(action)
    for index, state in enumerate(states):
        if index % 25 and index != len(states) - 1:
            continue
        yield GameState, to_data(state)
        yield list[ScoreSheet], to_data(ttr_core.score_sheets(state))
        for seat in range(players):
            yield PlayerView, to_data(ttr_core.player_view(state, seat))
            yield SeatStatus, to_data(ttr_core.seat_status(state, seat))
    final = states[-1]
    yield FinalScores, to_data(ttr_core.final_scores(final))
    for sheet in ttr_core.score_sheets(final):
        yield ScoreSheet, to_data(sheet)
    yield Board, board_data(final.board)


# ---------------------------------------------------------------------------
# to_data / from_data
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(("map_", "players", "variants"), CONFIGS[:4])
def test_to_data_round_trips(map_: str, players: int, variants: list[str] | None) -> None:
    record, states = game(map_, players, None if variants is None else tuple(variants))
    state = states[len(states) // 2]
    views = [ttr_core.player_view(state, seat) for seat in range(players)]
    sheets = ttr_core.score_sheets(state)
    final = ttr_core.final_scores(states[-1])
    for value, kind in [
        (state, GameState),
        (views[0], PlayerView),
        (record, GameRecord),
        (final, FinalScores),
        (record.actions[0], Action),
        (ttr_core.seat_status(state, state.current_player or 0), SeatStatus),
        (ttr_core.seat_status(states[-1], 1), SeatStatus),
    ]:
        data = to_data(value)
        assert json.dumps(data, ensure_ascii=False) == to_json(value)
        assert from_data(data, kind) == value
        assert from_json(to_json(value), kind) == value
    # Lists and tuples of any supported value.
    assert isinstance(sheets, tuple)
    assert from_json(to_json(sheets), list[ScoreSheet]) == list(sheets)
    assert from_data(to_data(views), list[PlayerView]) == views
    assert from_data(to_data((state, states[0])), list[GameState]) == [state, states[0]]
    assert from_data(to_data([final]), list[FinalScores]) == [final]
    assert from_data(to_data([record]), list[GameRecord]) == [record]
    assert to_json(state.board) == json.dumps(board_data(state.board), ensure_ascii=False)


def test_an_action_inside_an_apps_envelope() -> None:
    state = ttr_core.new_game("newyork", 2, seed=5)
    action = ttr_core.legal_actions(state)[0]
    envelope = json.dumps({"game": "g1", "ply": 0, "move": to_data(action)})
    parsed = json.loads(envelope)
    assert from_data(parsed["move"], Action) == action
    before = copy.deepcopy(parsed)
    from_data(parsed["move"], Action)
    assert parsed == before  # the input is never changed


def _refusal(call: Any) -> tuple[str, str]:
    with pytest.raises(DataError) as info:
        call()
    return info.value.path, info.value.message


def _state_data() -> dict[str, Any]:
    data: dict[str, Any] = to_data(ttr_core.new_game("nederland", 2, seed=9))
    return data


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda d: d["players"][1].__setitem__("cars", -1), "players[1].cars"),
        (lambda d: d["players"][0]["hand"].__setitem__("red", True), "players[0].hand.red"),
        (lambda d: d["players"][0].__setitem__("score", 1.0), "players[0].score"),
        (lambda d: d.__setitem__("extra", 1), ""),
        (lambda d: d.pop("deck"), ""),
        (lambda d: d.__setitem__("seed", "7"), "seed"),
        (lambda d: d["board"].__setitem__("fingerprint", "0" * 64), "board"),
        (lambda d: d["owners"].__setitem__(3, None), "owners[3]"),
    ],
)
def test_from_data_refuses_as_from_json_does(change: Any, path: str) -> None:
    data = _state_data()
    change(data)
    from_text = _refusal(lambda: from_json(json.dumps(data), GameState))
    assert from_text[0] == path
    assert _refusal(lambda: from_data(data, GameState)) == from_text
    # The same refusal inside a list, one index deeper.
    listed = _refusal(lambda: from_data([_state_data(), data], list[GameState]))
    assert listed[0] == ("[1]." + path if path else "[1]")


@pytest.mark.parametrize(
    ("data", "path", "message"),
    [
        ({"type": "pass", "player": (0,)}, "player", "not tuple"),
        ({"type": "keep_tickets", "player": 0, "tickets": {1, 2}}, "tickets", "not set"),
        ({"type": "pass", 0: 1}, "", "keys are strings"),
        ({"type": "pass", "player": math.nan}, "player", "not a number JSON allows"),
        ({"type": "pass", "player": -math.inf}, "player", "not a number JSON allows"),
        ({"type": "pass", "player": 10**5000}, "player", "thousands of digits"),
        ({"type": "pass", "player": True}, "player", "expected a whole number"),
        ({"type": "pass", "player": b"0"}, "player", "not bytes"),
        ({"type": "pass", "player": 0, "x": {"y": [object()]}}, "x.y[0]", "not object"),
        ("pass", "", "expected an action object"),
    ],
)
def test_from_data_refuses_what_is_not_json(data: Any, path: str, message: str) -> None:
    found = _refusal(lambda: from_data(data, Action))
    assert found[0] == path
    assert message in found[1]


def test_from_data_bounds_depth_size_and_cycles() -> None:
    deep: Any = 0
    for _ in range(ttr_core.data.messages.MAX_DEPTH + 1):
        deep = [deep]
    assert "nested too deeply" in _refusal(lambda: from_data(deep, list[Action]))[1]
    text = json.dumps(deep)
    assert "nested too deeply" in _refusal(lambda: from_json(text, list[Action]))[1]
    cycle: list[Any] = []
    cycle.append(cycle)
    assert "nested too deeply" in _refusal(lambda: from_data(cycle, list[Action]))[1]
    # A list shared many times counts each time it is reached.
    shared = ["x" * 1000] * 1000
    wide = [shared] * 10
    assert "larger than" in _refusal(lambda: from_data(wide, list[Action]))[1]
    # A kind that cannot be read, as from_json says.
    assert "cannot read" in _refusal(lambda: from_data({}, dict))[1]
    assert "cannot read" in _refusal(lambda: from_data([], list[int]))[1]


def test_to_data_refuses_what_it_cannot_write() -> None:
    assert "cannot write" in _refusal(lambda: to_data(object()))[1]
    state = ttr_core.new_game("newyork", 2, seed=1)
    assert _refusal(lambda: to_json([state, object()]))[0] == "[1]"


# ---------------------------------------------------------------------------
# board_data
# ---------------------------------------------------------------------------


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize("map_", ttr_core.available_maps())
def test_board_data_describes_the_map(map_: str) -> None:
    board = ttr_core.load_map(map_)
    data = board_data(board)
    assert json.loads(json.dumps(data, allow_nan=False)) == data  # JSON values only
    rebuilt = pickle.loads(pickle.dumps(board))  # a new Board of the same facts
    assert rebuilt is not board and board_data(rebuilt) == data  # deterministic
    assert data["id"] == board.id and data["name"] == board.name
    assert data["fingerprint"] == ttr_core.map_fingerprint(board)
    assert data["card_names"][-1] == "wild" and data["wild_name"] == board.wild_name
    assert sum(data["deck"].values()) == board.total_cards
    assert [loc["pos"] for loc in data["locations"]] == [
        None if loc.pos is None else list(loc.pos) for loc in board.locations
    ]
    for route, entry in zip(board.routes, data["routes"], strict=True):
        assert (entry["id"], entry["a"], entry["b"], entry["color"], entry["length"]) == (
            route.id,
            route.a,
            route.b,
            route.color,
            route.length,
        )
        assert entry["pair"] == route.pair and entry["extra"].keys() == route.extra.keys()
    assert data["rules"]["cars_per_player"] == board.rules.cars_per_player
    assert "source" not in data and "provenance" not in data  # no server paths
    validator(Board).validate(data)
    shipped_validator("board").validate(data)


def test_board_data_refuses_a_non_board() -> None:
    with pytest.raises(ttr_core.ArgumentError):
        board_data("newyork")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# JSON Schema
# ---------------------------------------------------------------------------

_KIND_FILES = {
    Action: "action",
    list[Action]: "actions",
    GameState: "game_state",
    PlayerView: "player_view",
    ScoreSheet: "score_sheet",
    list[ScoreSheet]: "score_sheets",
    FinalScores: "final_scores",
    GameRecord: "game_record",
    SeatStatus: "seat_status",
    Board: "board",
}


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
@pytest.mark.parametrize(("map_", "players", "variants"), CONFIGS)
def test_every_message_validates(map_: str, players: int, variants: list[str] | None) -> None:
    key = None if variants is None else tuple(variants)
    built_in = set(game(map_, players, key)[1][0].rules.variants) <= set(shipped_variants())
    counted: dict[Any, int] = {}
    for kind, data in messages(map_, players, key):
        validator(kind).validate(data)
        if built_in:
            shipped_validator(_KIND_FILES[kind]).validate(data)
        counted[kind] = counted.get(kind, 0) + 1
    assert set(counted) == set(_KIND_FILES)


def test_variant_messages_are_checked_in_depth() -> None:
    """The variant state and plugin actions are typed, not free-form."""
    _, states = game("nederland", 2, ("tolls", "neutral"))
    data = to_data(next(s for s in states if s.variant("tolls") is not None))
    assert validator(GameState).is_valid(data)
    data["variant_state"]["tolls"]["holdings"][0] = "4"
    assert not validator(GameState).is_valid(data)
    action = {"type": "neutral.choose_route", "player": 0, "route": 3}
    assert validator(Action).is_valid(action)
    assert not validator(Action).is_valid({**action, "route": "3"})
    assert not validator(Action).is_valid({**action, "type": "nope"})


def test_shipped_schemas_are_current() -> None:
    """The files equal what the code generates (python scripts/write_schemas.py)."""
    texts = schema_texts()
    assert sorted(texts) == sorted(p.name for p in SCHEMAS.glob("*.json"))
    for name, text in texts.items():
        assert (SCHEMAS / name).read_text(encoding="utf-8") == text, name
    assert set(SCHEMA_FILES.values()) == set(_KIND_FILES)


def test_schemas_follow_the_classes() -> None:
    """Every key a message is written with is a property of its schema, and
    every key the schema requires is written."""
    _, states = game("nederland", 2, ("tolls", "neutral"))
    state = states[len(states) // 2]
    for value, kind in [
        (state, GameState),
        (ttr_core.player_view(state, 0), PlayerView),
        (ttr_core.score_sheets(state)[0], ScoreSheet),
    ]:
        schema = json_schema(kind)
        body = schema["$defs"][kind.__name__] if "$ref" in schema else schema
        written = set(to_data(value))
        assert set(body["required"]) <= written <= set(body["properties"]), kind
        assert body["additionalProperties"] is False
    record = json_schema(GameRecord)["$defs"]["GameRecord"]
    written = set(to_data(game("newyork", 2, None)[0]))
    assert set(record["required"]) <= written <= set(record["properties"])


def test_json_schema_refuses_unknown_kinds() -> None:
    for bad in ("nope", dict, int):
        with pytest.raises(ttr_core.ArgumentError):
            json_schema(bad)
    with pytest.raises(ttr_core.ArgumentError):
        json_schema(Action, variants=["no-such-variant"])
    assert json_schema("game_state") == json_schema(GameState)


# ---------------------------------------------------------------------------
# Shape mutants: the schema and from_json agree
# ---------------------------------------------------------------------------

#: What from_json says about a field of the wrong shape (not a broken rule).
SHAPE = re.compile(
    r"expected (a |an |one of|true|\{)|unknown fields|missing fields|required field missing"
    r"|≥ 0|cannot be negative|unknown action type|this library reads format|below 2\*\*256"
)


def _is_shape(error: DataError) -> bool:
    # A variant's own state check (hook ttr_check_state) is a rule, not a shape.
    return bool(SHAPE.search(error.message)) and "variant '" not in error.message


_OTHER_TYPES: list[Any] = ["x", 7, 1.5, True, None, [], {}]


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number" if isinstance(value, float) else "integer"
    return type(value).__name__


def _text(path: tuple[Any, ...]) -> str:
    out = ""
    for key in path:
        out += f"[{key}]" if isinstance(key, int) else (f".{key}" if out else str(key))
    return out


def _nodes(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[tuple[Any, ...], Any]]:
    yield path, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _nodes(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _nodes(item, (*path, index))


def _mutants(data: Any, rng: random.Random) -> Iterator[tuple[str, str, Any]]:
    """(what, path, mutant): a value of another JSON type, a negative number,
    a key dropped, a key added."""

    def changed(path: tuple[Any, ...], change: Any) -> Any:
        mutant = copy.deepcopy(data)
        if not path:
            return change(mutant)
        parent = mutant
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = change(parent[path[-1]])
        return mutant

    for path, value in _nodes(data):
        others = [v for v in _OTHER_TYPES if _json_type(v) != _json_type(value)]
        if isinstance(value, float):
            others = [v for v in others if not isinstance(v, int) or isinstance(v, bool)]
        other = rng.choice(others)
        yield "type", _text(path), changed(path, lambda _, o=other: copy.deepcopy(o))
        if type(value) is int and value >= 0:
            yield "negative", _text(path), changed(path, lambda _: -1)
        if isinstance(value, dict):
            if value:
                key = rng.choice(sorted(value))
                yield "drop", _text(path), changed(path, lambda v, k=key: _without(v, k))
            yield "add", _text(path), changed(path, lambda v: {**v, "zz_extra": 0})


def _without(value: dict[str, Any], key: str) -> dict[str, Any]:
    return {k: v for k, v in value.items() if k != key}


def _related(a: str, b: str) -> bool:
    """One path is the other or inside it."""
    short, long_ = sorted((a, b), key=len)
    return long_.startswith(short) and long_[len(short) : len(short) + 1] in ("", ".", "[")


def _mutant_messages() -> Iterator[tuple[Any, Any]]:
    for map_, players, variants in [
        ("nederland", 2, ("tolls", "neutral")),
        ("amsterdam", 2, ("merchandise",)),
        ("newyork", 3, ("attractions", "longest_route")),
    ]:
        record, states = game(map_, players, variants)
        state = states[len(states) // 2]
        yield GameState, to_data(state)
        yield PlayerView, to_data(ttr_core.player_view(state, 1))
        yield FinalScores, to_data(ttr_core.final_scores(states[-1]))
        yield SeatStatus, to_data(ttr_core.seat_status(state, state.current_player or 0))
        short = GameRecord(**{**_fields(record), "actions": record.actions[:12]})
        yield GameRecord, to_data(short)
        for action in {type(a): a for a in record.actions}.values():
            yield Action, to_data(action)


def _fields(record: GameRecord) -> dict[str, Any]:
    import attrs

    return {f.name: getattr(record, f.name) for f in attrs.fields(GameRecord) if f.init}


@pytest.mark.filterwarnings("ignore::ttr_core.GeneratedTicketsWarning")
def test_shape_mutants_are_refused_by_both() -> None:
    rng = random.Random(19)
    checked = shape = 0
    for kind, data in _mutant_messages():
        check = validator(kind)
        assert check.is_valid(data)
        mutants = list(_mutants(data, rng))
        for what, path, mutant in rng.sample(mutants, min(len(mutants), 120)):
            schema_ok = check.is_valid(mutant)
            try:
                from_json(json.dumps(mutant), kind)
                refused = None
            except DataError as exc:
                refused = exc
            label = f"{kind}: {what} at {path!r}"
            # The schema is never stricter than the library.
            assert schema_ok or refused is not None, f"{label}: only the schema refuses"
            # A shape the library refuses, the schema refuses too.
            # What variants show in a view is typed per map and player count
            # (hook ttr_view_types): free-form in the schema.
            in_view_variants = (kind is PlayerView and path.startswith("variants.")) or (
                kind is SeatStatus and path.startswith("view.variants.")
            )
            if (
                refused is not None
                and _is_shape(refused)
                and _related(refused.path, path)
                and not in_view_variants
            ):
                shape += 1
                assert not schema_ok, f"{label}: schema accepts; from_json says {refused}"
            checked += 1
    assert checked > 1000 and shape > 300, (checked, shape)


@pytest.mark.parametrize("kind", [PlayerView, FinalScores])
def test_an_unknown_termination_is_refused(kind: Any) -> None:
    result = ttr_core.random_playout("newyork", 2, seed=1)
    value = result.scores if kind is FinalScores else ttr_core.player_view(result.state, 0)
    data = to_data(value)
    data["termination"] = "gave up"
    assert not validator(kind).is_valid(data)
    with pytest.raises(DataError):
        from_data(data, kind)
