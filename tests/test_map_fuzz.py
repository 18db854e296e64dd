"""Fuzzing the map loader with mutated built-in maps (issue 10).

Each example takes the text of a map in this repository's ``maps/`` folder,
applies one to three mutations (character and line edits, numbers replaced
by huge, negative, zero or float values, deep nesting, very long strings,
control characters, swapped keys, files too large, edits of the parsed data
written back by a small TOML writer of this file, rule numbers pushed to the
largest the limits allow) and requires that the loader either
raises ``MapError`` or returns a valid board on which a first game of a few
dozen random legal actions completes, all within a bound of CPU time.
Nothing else may come out of it.

``TTR_FUZZ_EXAMPLES`` sets the number of examples (``nox -s fuzz`` runs
10,000); the default keeps this file to about half a minute.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import random
import re
import tomllib
import unicodedata
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import Board, MapError, MapProblem, TtrError
from ttr_core.mapfiles.tomllines import nesting_problem

from .helpers import cpu_clock

MAPS = Path(__file__).resolve().parents[1] / "maps"
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in sorted(MAPS.glob("*.toml"))}
EXAMPLES = int(os.environ.get("TTR_FUZZ_EXAMPLES", "1000"))
#: CPU seconds one example may take: loading (or refusing) and the first game.
TIME_BOUND = 2.0
#: Actions of the first game played on a map that loads.
ACTIONS = 40
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# ---------------------------------------------------------------------------
# A tiny TOML writer (for mutations of the parsed data)
# ---------------------------------------------------------------------------


class Raw(str):
    """TOML text written as it is (a value the writer could not produce)."""


_BARE = re.compile(r"[A-Za-z0-9_-]+")


def dumps(data: dict[str, Any]) -> str:
    """``data`` as TOML: scalars and arrays first, then each sub-table under a header."""
    lines: list[str] = []
    _write_table(lines, (), data)
    return "\n".join(lines) + "\n"


def _write_table(lines: list[str], path: tuple[str, ...], table: dict[str, Any]) -> None:
    if path:
        lines.append(f"[{'.'.join(_key(part) for part in path)}]")
    for key, value in table.items():
        if not isinstance(value, dict):
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in table.items():
        if isinstance(value, dict):
            _write_table(lines, (*path, key), value)


def _key(key: str) -> str:
    return key if _BARE.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F or 0xD800 <= ord(char) < 0xE000:
            out.append(f"\\u{ord(char):04x}")  # a surrogate's escape is not TOML: refused
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _value(value: Any) -> str:
    if isinstance(value, Raw):
        return str(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    return str(value)  # dates and times: their TOML form is their str()


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_the_writer_writes_what_it_read(name: str) -> None:
    data = tomllib.loads(TEXTS[name])
    assert tomllib.loads(dumps(data)) == data


# ---------------------------------------------------------------------------
# Mutations: each takes hypothesis' data and a text, and returns a text
# ---------------------------------------------------------------------------

CONTROLS = ["\x00", "\x01", "\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\u200b", "\u202e", "\u2028"]
SPECIALS = list("[]{}\"'#=.,\n\\ 0123456789-+_") + CONTROLS + ["é", "\U0001f682", "\ufeff"]
NUMBERS = [
    "0",
    "-1",
    "1",
    "2",
    "8",
    "9",
    "20",
    "21",
    "200",
    "500",
    "501",
    "1000",
    "1001",
    "-1000000",
    "1000000",
    "1000001",
    "1000000000",
    "9223372036854775807",
    "18446744073709551616",
    "1" + "0" * 30,
    "9" * 5000,
    "1.5",
    "-0.0",
    "inf",
    "nan",
    "1e309",
    "0x7fffffff",
    "0b101",
    "1_000",
    "true",
    '"7"',
    "[]",
    "{}",
    "1979-05-27",
]
WEIRD: list[Any] = [
    0,
    -1,
    1,
    8,
    9,
    20,
    21,
    500,
    1000,
    10**6,
    10**6 + 1,
    10**9,
    2**63,
    10**30,
    -(10**30),
    1.5,
    math.inf,
    math.nan,
    True,
    False,
    "",
    " ",
    "gray",
    "wild",
    "red",
    "\x00",
    "a\u202eb",
    "line\nbreak",
    "A" * 100,
    "A" * 101,
    "A" * 3000,
    [],
    {},
    [1, 2],
    [2, 8],
    [2, 9],
    ["a", "b"],
    {"a": 1},
    Raw("9" * 5000),
    Raw("[" * 11 + "]" * 11),
    Raw("{ a = " * 12 + "1" + " }" * 12),
]
NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.])")
STRING = re.compile(r'"([^"\\\n]*)"')
KEY = re.compile(r"^([ \t]*)([A-Za-z_][A-Za-z0-9_-]*)([ \t]*=)", re.MULTILINE)


def _at(data: st.DataObject, length: int) -> int:
    return data.draw(st.integers(0, length), label="position")


def character_edit(data: st.DataObject, text: str) -> str:
    at = _at(data, len(text))
    char = data.draw(st.sampled_from(SPECIALS) | st.characters(), label="character")
    kind = data.draw(st.sampled_from(["insert", "delete", "replace"]), label="edit")
    if kind == "insert":
        return text[:at] + char + text[at:]
    if kind == "delete":
        return text[:at] + text[at + 1 :]
    return text[:at] + char + text[at + 1 :]


def line_edit(data: st.DataObject, text: str) -> str:
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 1), label="line")
    j = data.draw(st.integers(0, len(lines) - 1), label="other line")
    kind = data.draw(st.sampled_from(["delete", "duplicate", "swap", "move"]), label="edit")
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines[i:i] = [lines[i]] * data.draw(st.sampled_from([1, 2, 50]), label="copies")
    elif kind == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(j, lines.pop(i))
    return "\n".join(lines)


def number_edit(data: st.DataObject, text: str) -> str:
    found = list(NUMBER.finditer(text))
    if not found:
        return text
    match = data.draw(st.sampled_from(found), label="number")
    number = data.draw(st.sampled_from(NUMBERS), label="replacement")
    return text[: match.start()] + number + text[match.end() :]


def nesting_bomb(data: st.DataObject, text: str) -> str:
    depth = data.draw(st.sampled_from([3, 9, 10, 11, 50, 1000, 30_000]), label="depth")
    shape = data.draw(st.sampled_from(["array", "table", "mixed", "dotted", "header"]))
    if shape == "array":
        bomb = "[" * depth + "1" + "]" * depth
    elif shape == "table":
        bomb = "{ a = " * depth + "1" + " }" * depth
    elif shape == "mixed":
        bomb = "[{ a = " * (depth // 2) + "1" + " }]" * (depth // 2)
    elif shape == "dotted":
        return _insert_line(data, text, "a" + ".a" * depth + " = 1")
    else:
        return _insert_line(data, text, "[a" + ".a" * depth + "]")
    found = list(NUMBER.finditer(text))
    as_value: bool = data.draw(st.booleans(), label="as a value")
    if found and as_value:
        match = data.draw(st.sampled_from(found), label="number")
        return text[: match.start()] + bomb + text[match.end() :]
    return _insert_line(data, text, f"bomb = {bomb}")


def _insert_line(data: st.DataObject, text: str, line: str) -> str:
    lines = text.split("\n")
    lines.insert(data.draw(st.integers(0, len(lines)), label="line"), line)
    return "\n".join(lines)


def long_string(data: st.DataObject, text: str) -> str:
    found = list(STRING.finditer(text))
    if not found:
        return text
    match = data.draw(st.sampled_from(found), label="string")
    size = data.draw(st.sampled_from([0, 100, 101, 2000, 2001, 100_000, 300_000]), label="size")
    fill = data.draw(st.sampled_from(["A", "é", " ", "\\u0041", "[", "."]), label="fill")
    return text[: match.start(1)] + fill * size + text[match.end(1) :]


def control_character(data: st.DataObject, text: str) -> str:
    found = list(STRING.finditer(text))
    if not found:
        return text
    match = data.draw(st.sampled_from(found), label="string")
    char = data.draw(st.sampled_from(CONTROLS), label="control")
    written = char if data.draw(st.booleans(), label="raw") else f"\\u{ord(char):04x}"
    at = data.draw(st.integers(match.start(1), match.end(1)), label="position")
    return text[:at] + written + text[at:]


def key_edit(data: st.DataObject, text: str) -> str:
    found = list(KEY.finditer(text))
    if len(found) < 2:
        return text
    first, second = (data.draw(st.sampled_from(found), label="key") for _ in range(2))
    a, b = first.group(2), second.group(2)
    if data.draw(st.booleans(), label="swap"):
        edits = sorted([(first, b), (second, a)], key=lambda e: -e[0].start(2))
    else:
        edits = [(first, b)]
    for match, name in edits:
        text = text[: match.start(2)] + name + text[match.end(2) :]
    return text


def size_bomb(data: st.DataObject, text: str) -> str:
    size = data.draw(st.sampled_from([100_000, 250_000, 300_000, 2_000_000]), label="size")
    kind = data.draw(st.sampled_from(["comment", "array", "keys"]), label="kind")
    if kind == "comment":
        return text + "\n" + ("# " + "x" * 60 + "\n") * (size // 63)
    if kind == "array":
        return text + "\n[junk]\nlist = [" + "1," * (size // 2) + "]\n"
    return text + "\n[junk]\n" + "".join(f"k{i} = 1\n" for i in range(size // 10))


def _places(value: Any, path: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every key and index path in parsed data."""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        return
    for key, item in items:
        yield (*path, key)
        yield from _places(item, (*path, key))


def structure_edit(data: st.DataObject, text: str) -> str:
    """Parse, change one place of the data, write it back."""
    # Not on a text an earlier mutation made huge or deep: tomllib would
    # recurse too deeply or exhaust memory here, in the test.
    if len(text) > 300_000 or nesting_problem(text, 50, 50) is not None:
        return text
    try:
        doc = tomllib.loads(text)
    except ValueError:
        return text
    places = list(_places(doc))
    if not places:
        return text
    path = data.draw(st.sampled_from(places), label="place")
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    key = path[-1]
    value = parent[key]
    kind = data.draw(
        st.sampled_from(["delete", "replace", "multiply", "wrap", "rename", "copy"]), label="edit"
    )
    if kind == "delete":
        del parent[key]
    elif kind == "replace":
        names = re.findall(r'"([^"\\\n]{1,40})"', text)[:200]
        pool = st.sampled_from(WEIRD) | st.integers() | st.text(max_size=12)
        if names:  # the map's own names make plausible values
            pool = pool | st.sampled_from(names)
        parent[key] = data.draw(pool, label="value")
    elif kind == "multiply":
        times = data.draw(st.sampled_from([2, 10, 100, 2000]), label="times")
        if isinstance(value, list):
            parent[key] = value * times
        elif isinstance(value, dict):
            value.update({f"{k}{i}": v for i in range(times) for k, v in list(value.items())[:3]})
        else:
            parent[key] = [value] * times
    elif kind == "wrap":
        parent[key] = [value] if data.draw(st.booleans(), label="in a list") else {"x": value}
    elif kind == "rename" and isinstance(parent, dict):
        other = data.draw(st.sampled_from([str(p[-1]) for p in places]), label="new name")
        parent[other] = parent.pop(key)
    elif kind == "copy":
        source = data.draw(st.sampled_from(places), label="copied from")
        copied: Any = doc
        for part in source:
            copied = copied[part]
        parent[key] = json.loads(json.dumps(copied, default=str))
    return dumps(doc)


def edge_values(data: st.DataObject, text: str) -> str:
    """Parse, push some of the rule numbers to the largest the limits allow,
    write it back: maps that often still load, and must then play at once."""
    if len(text) > 300_000 or nesting_problem(text, 50, 50) is not None:
        return text
    try:
        doc = tomllib.loads(text)
    except ValueError:
        return text
    rules, cards, meta, board = (doc.get(key) for key in ("rules", "cards", "map", "board"))
    if not (
        isinstance(rules, dict)
        and isinstance(cards, dict)
        and isinstance(meta, dict)
        and isinstance(board, dict)
    ):
        return text
    doc.pop("components", None)  # declared counts would no longer match
    if data.draw(st.booleans(), label="most players"):
        meta["players"] = [2, 8]
        rules["start_scores"] = [0] * 8
    colours = cards.get("colors")
    listed_routes = board.get("routes")
    routes = [
        r
        for r in (listed_routes if isinstance(listed_routes, list) else [])
        if isinstance(r, dict) and "pair" not in r  # a pair's routes have one length
    ]
    longest = bool(routes) and data.draw(st.booleans(), label="longest routes")
    if longest or data.draw(st.booleans(), label="most cars"):
        rules["cars_per_player"] = 200
    if isinstance(colours, dict) and colours and (longest or data.draw(st.booleans())):
        each = min(500, 1000 // (len(colours) + 1))  # the most cards allowed in all
        cards["colors"] = dict.fromkeys(colours, each)
        cards["wild"] = each
    if longest and isinstance(rules.get("route_points"), dict):
        for route in data.draw(st.lists(st.sampled_from(routes), max_size=5), label="routes"):
            route["length"] = 20
        rules["route_points"]["20"] = 1000
    tickets, players = rules.get("tickets"), meta.get("players")
    listed = board.get("tickets")
    if (
        isinstance(tickets, dict)
        and isinstance(listed, list)
        and isinstance(players, list)
        and players
        and isinstance(players[-1], int)
        and players[-1] > 0
        and data.draw(st.booleans(), label="most tickets dealt")
    ):
        deck = tickets.get("deck")
        size = max(len(listed), deck if isinstance(deck, int) else 0)
        dealt = max(1, min(10, size // players[-1]))
        tickets["start_dealt"] = tickets["draw"] = dealt
        tickets["start_keep"] = tickets["draw_keep"] = 1
    if data.draw(st.booleans(), label="largest display"):
        rules["display_size"], rules["max_face_up_wilds"] = 20, 19
    return dumps(doc)


MUTATIONS: list[Callable[[st.DataObject, str], str]] = [
    edge_values,
    edge_values,
    character_edit,
    line_edit,
    number_edit,
    number_edit,
    nesting_bomb,
    long_string,
    control_character,
    key_edit,
    size_bomb,
    structure_edit,
    structure_edit,
]


def mutated(data: st.DataObject) -> str:
    name = data.draw(st.sampled_from(sorted(TEXTS)), label="map")
    text = TEXTS[name]
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        mutation = data.draw(st.sampled_from(MUTATIONS), label="mutation")
        event(mutation.__name__)
        text = mutation(data, text)
    return text


# ---------------------------------------------------------------------------
# What must come out
# ---------------------------------------------------------------------------

_CONTROL = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def assert_valid(board: Board) -> None:
    """A board within every limit (docs/map-format.md, "Limits")."""
    rules = board.rules
    assert 1 <= rules.min_players <= rules.max_players <= 8
    assert 1 <= rules.cars_per_player <= 200
    assert len(board.colors) <= 12 and sum(board.deck) <= 1000
    assert all(0 <= n <= 500 for n in board.deck)
    assert len(board.locations) <= 200 and len(board.routes) <= 1000
    assert sum(r.length for r in board.routes) <= 1500
    for route in board.routes:
        assert 1 <= route.length <= min(20, rules.cars_per_player)
        assert route.length in rules.route_points
    assert all(0 <= points <= 1000 for points in rules.route_points.values())
    assert all(1 <= t.points <= 1000 for t in board.tickets)
    names = [board.id, *board.aliases, *board.colors, *board.rules.default_variants]
    names += [spelling for loc in board.locations for spelling in (loc.name, *loc.aliases)]
    for name in names:
        assert 0 < len(name) <= 100
        assert not any(unicodedata.category(c) in _CONTROL for c in name), name


def play_first_game(board: Board, seed: int) -> None:
    """A first game of random legal actions (a configuration the variants
    refuse, with a ``TtrError``, is fine)."""
    rng = random.Random(seed)
    players = rng.randint(board.rules.min_players, board.rules.max_players)
    try:
        state = ttr_core.new_game(board, players, seed=seed)
    except TtrError as error:
        event(f"new_game refused: {type(error).__name__}")
        return
    for _ in range(ACTIONS):
        if ttr_core.is_over(state):
            break
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))


def outcome(load: Callable[[], Board], seed: int) -> None:
    """``load()`` gives a valid, playable board or raises ``MapError``, in time."""
    with cpu_clock() as clock:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ttr_core.TtrWarning)
            try:
                board = load()
            except MapError as error:
                assert error.problems
                assert all(isinstance(p, MapProblem) for p in error.problems)
                assert len(error.problems) <= 101
                assert str(error)
                for problem in error.problems:
                    # The loader's last line of defence must never be needed: its
                    # messages mean a check (or the scan before tomllib) missed it.
                    assert "could not be checked" not in problem.message, problem
                    assert "too large or too deeply nested to" not in problem.message, problem
                event("refused")
            else:
                event("loaded")
                assert_valid(board)
                play_first_game(board, seed)
        elapsed = clock()
    assert elapsed < TIME_BOUND, f"{elapsed:.2f} s of CPU time"


@FUZZ
@given(st.data())
def test_mutated_maps_load_or_are_refused(data: st.DataObject) -> None:
    text = mutated(data)
    seed = data.draw(st.integers(0, 2**16), label="seed")
    outcome(lambda: ttr_core.parse_map(text, "fuzz.toml"), seed)


_NAMES = itertools.count()


@settings(FUZZ, max_examples=max(10, EXAMPLES // 5))
@given(data=st.data())
def test_mutated_map_files_load_or_are_refused(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject
) -> None:
    # Files add what text cannot have: bytes that are not UTF-8, a byte order
    # mark, other line ends. Each file has its own name: load_map caches by path.
    raw = mutated(data).encode("utf-8", "surrogatepass")
    kind = data.draw(st.sampled_from(["as is", "bytes", "bom", "crlf", "cr"]), label="file")
    if kind == "bytes":
        at = data.draw(st.integers(0, len(raw)), label="position")
        raw = raw[:at] + data.draw(st.binary(min_size=1, max_size=4), label="bytes") + raw[at:]
    elif kind == "bom":
        raw = b"\xef\xbb\xbf" + raw
    elif kind == "crlf":
        raw = raw.replace(b"\n", b"\r\n")
    elif kind == "cr":
        raw = raw.replace(b"\n", b"\r")
    path = tmp_path_factory.getbasetemp() / f"fuzz-{next(_NAMES)}.toml"
    path.write_bytes(raw)
    try:
        outcome(lambda: ttr_core.load_map(path), data.draw(st.integers(0, 2**16), label="seed"))
    finally:
        path.unlink()
