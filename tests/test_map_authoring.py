"""Map authoring diagnostics: line numbers, "did you mean" and alias hints,
and warnings for maps that load but are probably wrong.

Every map here is written into this file; the expected line numbers are
those of the texts below (each test also checks that the line it expects
holds the entry concerned, so a miscounted expectation cannot pass).
"""

from __future__ import annotations

import tomllib
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import LOCATION, MapError, MapField, MapProblem, MapWarning, hookimpl

from .test_maps import TINY_MAP, edited

MAPS = Path(__file__).resolve().parents[1] / "maps"

SMALL_MAP = """\
format = 1

[map]
id = "small"
name = "Small Test Map"
players = [2, 3]

[cards]
colors = { red = 8, blue = 8 }
wild = 6

[rules]
cars_per_player = 6
starting_hand = 3
display_size = 3
max_face_up_wilds = 1
end_trigger_cars = 1
both_pair_routes_min_players = 3

[rules.tickets]
start_dealt = 2
start_keep = 1
draw = 2
draw_keep = 1
returned = "bottom"

[rules.route_points]
1 = 1
2 = 2

[components]
routes = 4

[board]
locations = [
  { name = "Alpha" },
  { name = "Beta" },
  { name = "'s-Gravenhage", aliases = ["Den Haag"] },
  { name = "Delta" },
]
routes = [
  { id = 0, a = "Alpha", b = "Beta", color = "red", length = 1 },
  { id = 1, a = "Beta", b = "'s-Gravenhage", color = "blue", length = 2 },
  { id = 2, a = "'s-Gravenhage", b = "Delta", color = "gray", length = 1 },
  { id = 3, a = "Delta", b = "Alpha", color = "gray", length = 2 },
]
tickets = [
  { id = 0, a = "Alpha", b = "'s-Gravenhage", points = 3 },
  { id = 1, a = "Beta", b = "Delta", points = 2 },
  { id = 2, a = "Alpha", b = "Delta", points = 2 },
  { id = 3, a = "Beta", b = "'s-Gravenhage", points = 2 },
  { id = 4, a = "Alpha", b = "Beta", points = 1 },
  { id = 5, a = "'s-Gravenhage", b = "Delta", points = 1 },
]
"""

HAGUE = '"\'s-Gravenhage"'  # how the messages quote the printed name (its repr)


def problems_of(text: str, source: str = "small.toml") -> list[MapProblem]:
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source=source)
    return list(info.value.problems)


def summary(problems: list[MapProblem]) -> set[tuple[int | None, str, str]]:
    return {(p.line, p.entry, p.message) for p in problems}


def assert_line_holds(text: str, line: int, fragment: str) -> None:
    """The expected ``line`` of ``text`` (1-based) really holds ``fragment``."""
    assert fragment in text.splitlines()[line - 1], (line, fragment)


def test_the_small_map_is_valid_and_warns_nothing() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        board = ttr_core.parse_map(SMALL_MAP, source="small.toml")
    assert [loc.name for loc in board.locations] == ["Alpha", "Beta", "'s-Gravenhage", "Delta"]
    assert len(board.routes) == 4 and len(board.tickets) == 6


# ---------------------------------------------------------------------------
# 1. Line numbers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("newline", ["\n", "\r\n"], ids=["lf", "crlf"])
def test_board_entries_carry_the_line_of_their_inline_table(newline: str) -> None:
    text = edited(
        SMALL_MAP,
        [
            ('{ name = "Beta" }', '{ name = "Beta", capital = true }'),
            ('b = "Delta", color = "gray"', 'b = "Delta", color = "grey"'),
            ('b = "Alpha", color = "gray", length = 2', 'b = "Alpha", color = "gray", length = 0'),
            ('{ id = 4, a = "Alpha", b = "Beta", points = 1 }', '"Alpha to Beta"'),
            ('{ id = 5, a = "\'s-Gravenhage"', '{ id = 5, a = "Zanzibar"'),
        ],
    )
    for line, fragment in [(37, "Beta"), (44, "grey"), (45, "length = 0"), (52, "Alpha to")]:
        assert_line_holds(text, line, fragment)
    problems = problems_of(text.replace("\n", newline))
    assert summary(problems) == {
        (
            37,
            "location 1 ('Beta')",
            "unknown field 'capital' (expected one of: aliases, attraction, name, pos)",
        ),
        (
            44,
            "route 2",
            "bad colour 'grey' (expected gray or one of: red, blue); did you mean 'gray'?",
        ),
        (45, "route 3", "'length' must be a whole number ≥ 1, not 0"),
        (52, "tickets[4]", "must be a table, not 'Alpha to Beta'"),
        (53, "ticket 5", "unknown location 'Zanzibar'"),
        (47, "tickets", "ticket ids must be 0..4; got [0, 1, 2, 3, 5]"),  # the key's line
        (20, "[rules.tickets]", "5 tickets cannot deal 2 to 3 players"),  # the header's line
    }
    assert len(problems) == 7


def test_problems_found_by_id_point_at_the_entry_concerned() -> None:
    """Duplicate ids, pairs and undeclared parallels are found after reading
    every route: each still names the line of the route it concerns."""
    text = edited(
        SMALL_MAP,
        [
            ('{ id = 1, a = "Beta", b = "\'s', '{ id = 0, a = "Beta", b = "\'s'),
            (
                '"Delta", color = "gray", length = 1 }',
                '"Delta", color = "gray", length = 1, pair = 7 }',
            ),
            ('{ id = 3, a = "Delta", b = "Alpha"', '{ id = 3, a = "Beta", b = "Alpha"'),
        ],
    )
    problems = problems_of(text)
    assert summary(problems) == {
        (43, "route 0", "duplicate route id"),
        (44, "pair 7", "a pair needs exactly 2 routes, found 1: [2]"),
        (45, "route 3", "duplicates route 0 (Beta–Alpha) without sharing its pair"),
    }


def test_array_of_tables_entries_carry_their_header_line() -> None:
    head, _, _ = SMALL_MAP.partition("routes = [\n")
    _, _, tickets = SMALL_MAP.partition("]\ntickets = [\n")
    text = (
        head
        + "tickets = [\n"
        + tickets
        + "\n"
        + "\n".join(
            f'[[board.routes]]\nid = {i}\na = "{a}"\nb = "{b}"\ncolor = "{c}"\nlength = {n}\n'
            for i, (a, b, c, n) in enumerate(
                [
                    ("Alpha", "Beta", "red", 1),
                    ("Beta", "'s-Gravenhage", "blue", 2),
                    ("'s-Gravenhage", "Delat", "gray", 1),  # line 64
                    ("Delta", "Alpha", "gray", 2),
                ]
            )
        )
    )
    assert_line_holds(text, 64, "[[board.routes]]")
    assert_line_holds(text, 66, '"\'s-Gravenhage"')
    assert_line_holds(text, 67, "Delat")
    assert_line_holds(text, 43, '{ id = 1, a = "Beta"')
    bad_ticket = text.replace('{ id = 1, a = "Beta"', '{ id = 1, a = "Den Haag"')
    problems = problems_of(bad_ticket)
    assert summary(problems) == {
        (43, "ticket 1", f"'Den Haag' is an alias of {HAGUE}: use the printed name"),
        (64, "route 2", "unknown location 'Delat'; did you mean 'Delta'?"),
    }


def test_table_problems_carry_the_line_of_their_key_or_header() -> None:
    text = edited(
        SMALL_MAP,
        [
            ("format = 1", "format = 2"),
            ('name = "Small Test Map"', 'title = "Small Test Map"'),
            ("wild = 6", "wilds = 6"),
            ("max_face_up_wilds = 1", "max_face_up_wilds = 4"),
            ('returned = "bottom"', 'returned = "sideways"'),
            ("2 = 2", '2 = "two"'),
            ("routes = 4", "routes = 5"),
        ],
    )
    text += '\n[fields.tickets]\nneutral = "path"\n\n[fields.cities]\nbig = "bool"\n'
    assert_line_holds(text, 57, 'neutral = "path"')
    assert_line_holds(text, 59, "[fields.cities]")
    problems = problems_of(text)
    assert summary(problems) == {
        (1, "file", "'format' must be 1, not 2"),
        (
            5,
            "[map]",
            "unknown key 'title' (expected one of: "
            "aliases, aspect, id, name, pieces, players, variants)",
        ),
        (3, "[map]", "'name' must be a non-empty string, not None"),  # missing: the header
        (
            10,
            "[cards]",
            "unknown key 'wilds' (expected one of: colors, wild, wild_name); did you mean 'wild'?",
        ),
        (8, "[cards]", "missing 'wild' (a whole number ≥ 0)"),
        (
            16,
            "[rules]",
            "max_face_up_wilds must be at most display_size (equal: the display is never "
            "laid out again for its wilds)",
        ),
        (
            25,
            "[rules.tickets]",
            "'returned' must be one of ('bottom', 'discard', 'box'), not 'sideways'",
        ),
        (29, "[rules.route_points]", "points for length 2 must be a whole number"),
        (45, "route 3", "length 2 has no entry in [rules.route_points]"),
        (43, "route 1", "length 2 has no entry in [rules.route_points]"),
        (32, "[components]", "declares 5 routes but the data has 4"),
        (
            57,
            "[fields.tickets]",
            "field 'neutral': kind must be one of bool, int, str, location, route, list[int], "
            "list[str], list[location], not 'path'",
        ),
        (
            59,
            "[fields.cities]",
            "unknown table 'cities' (expected one of: locations, routes, tickets); "
            "did you mean 'tickets'?",
        ),
    }


def test_missing_tables_and_lists_have_the_line_of_what_is_there() -> None:
    text = edited(SMALL_MAP, [("[components]\nroutes = 4\n", "[extras]\nroutes = 4\n")])
    text = text.replace("[rules.route_points]\n1 = 1\n2 = 2\n", "\n\n\n")
    text = text.replace(text[text.index("tickets = [\n") :], "tickets = []\n")
    assert_line_holds(text, 31, "[extras]")
    assert_line_holds(text, 47, "tickets = []")
    problems = problems_of(text)
    assert (
        31,
        "file",
        "unknown key 'extras' (expected one of: board, cards, components, fields, format, map, "
        "provenance, regions, rules, variants)",
    ) in summary(problems)
    assert (12, "[rules]", "missing table [route_points]") in summary(problems)
    assert (47, "[board]", "'tickets' must be a non-empty list of tables") in summary(problems)


def test_a_toml_syntax_error_has_its_line() -> None:
    text = SMALL_MAP.replace('color = "gray", length = 1 }', 'color = "gray, length = 1 }')
    assert_line_holds(text, 44, '"gray, length')
    (problem,) = problems_of(text)
    assert (problem.line, problem.entry) == (44, "file")
    assert problem.message.startswith("not valid TOML: ")
    assert str(problem).startswith("small.toml:44: file: not valid TOML: ")


def test_a_toml_error_at_the_end_of_the_document_has_no_line() -> None:
    (problem,) = problems_of(SMALL_MAP + "extra = [\n")
    assert problem.line is None
    assert str(problem) == "small.toml: file: not valid TOML: Invalid value (at end of document)"


TRICKY_BOARD = """\
[map]
id = "tricky"
name = \"\"\"A "tricky" map: [ { ], \\\"\"\"
routes = [ { ], # } ' ''' "quote" \"\"\"\"
aliases = ['[', "]", "{\\"", 'x#y', '''a ' b''''']  # comment { id = 9 } "
players = [
  2,  # [ {
  3,
]

[ fields . tickets ]
via = "route"

[board]
"loc\\u0061tions" = [
  # { name = "Nowhere" },
  { name = "A, [1]" },
  { name = 'B #x' },  # , { name = "X" },
  { name = "G\\"m", aliases = ["G{", 'G]', \"\"\"G,\"\"\"] },

  { name = "D" } # the last one, { name = "X" }, ]
]
routes = [ { id = 0, a = "A, [1]", b = 'B #x', color = "red", length = 1 },
  {id=1,a='B #x',b="G\\"m",color="blue",length=2}, {id=2,a="G\\"m",b="D",color="red",length=1},
  {id=3,a="D",b="A, [1]",color="gray",length=2},
  ]
'tickets' = [
  { id = 0, a = "A, [1]", b = "D", points = 3, via = ["G\\"m", "D"] },
  { id = 1, a = "G\\"m", b = "D", points = 2, via = [
  "D", "G\\"m"] },
  { id = 2, a = "A, [1]", b = "D", points = 2 },
  { id = 3, a = "D", b = "G\\"m", points = 2 },
  { id = 4, a = "A, [1]", b = 'B #x', points = 1 },
  { id = 5, a = "A, [1]", b = "G\\"m", points = 1 },
]
"""


def tricky_map() -> str:
    """The small map's cards and rules, with a board full of strings,
    comments and nesting that a careless scanner would miscount."""
    rules = SMALL_MAP[SMALL_MAP.index("[cards]") : SMALL_MAP.index("[components]")]
    return "format = 1\n\n" + rules + TRICKY_BOARD


def test_strings_comments_and_nesting_do_not_fool_the_line_numbers() -> None:
    """Brackets, braces, commas and '#' inside strings, escaped quotes,
    multi-line strings, comments between and after entries, two entries on
    one line, an entry on the line of ``[``, nested arrays, quoted keys."""
    valid = tricky_map()
    board = ttr_core.parse_map(valid, source="tricky.toml")
    assert board.name.startswith('A "tricky" map: [ { ], """\nroutes = [ { ], # }')
    assert board.locations[2].name == 'G"m'
    assert board.tickets[0].extra["via"] == ('G"m', "D")

    text = edited(
        valid,
        [
            ('{ name = "D" } # the last', '{ name = "D", big = 1 } # the last'),
            ('b="G\\"m",color="blue"', 'b="G\\"m",color="blu"'),
            ('b="D",color="red"', 'b="D",color="rde"'),
            ('color="gray",length=2}', 'color="gray",length=9}'),
            ('a = "G\\"m", b = "D", points = 2', 'a = "G\\"m", b = "D", points = 0'),
            ('{ id = 5, a = "A, [1]"', '{ id = 5, a = "A, 1"'),
            (
                '[ fields . tickets ]\nvia = "route"',
                '[ fields . tickets ]\nvia2 = "route"\nvia3 = "rout"',
            ),
        ],
    )
    lines = {
        'via3 = "rout"': 38,
        "big = 1": 47,
        'color="blu"': 50,
        'color="rde"': 50,
        "length=9": 51,
        "points = 0": 55,
        '"A, 1"': 60,
    }
    for fragment, line in lines.items():
        assert_line_holds(text, line, fragment)
    problems = problems_of(text, source="tricky.toml")
    assert summary(problems) == {
        (
            38,
            "[fields.tickets]",
            "field 'via3': kind must be one of bool, int, str, location, route, list[int], "
            "list[str], list[location], not 'rout'; "
            "did you mean 'route'?",
        ),
        (
            47,
            "location 3 ('D')",
            "unknown field 'big' (expected one of: aliases, attraction, name, pos)",
        ),
        (
            50,
            "route 1",
            "bad colour 'blu' (expected gray or one of: red, blue); did you mean 'blue'?",
        ),
        (
            50,
            "route 2",
            "bad colour 'rde' (expected gray or one of: red, blue); did you mean 'red'?",
        ),
        (51, "route 3", "length 9 has no entry in [rules.route_points]"),
        (
            54,
            "ticket 0",
            "unknown field 'via' (expected one of: a, b, id, neutral, points, to, via2); "
            "did you mean 'via2'?",
        ),
        (
            55,
            "ticket 1",
            "unknown field 'via' (expected one of: a, b, id, neutral, points, to, via2); "
            "did you mean 'via2'?",
        ),
        (55, "ticket 1", "'points' must be a whole number ≥ 1, not 0"),
        (
            60,
            "ticket 5",
            "unknown location 'A, 1'; did you mean 'A, [1]'?",
        ),
    }


def test_a_place_the_scanner_cannot_tell_has_no_line() -> None:
    """A board written as one inline table: its entries have no line of
    their own, so problems in them get none (rather than a wrong one); the
    tables around keep theirs."""
    inline = (
        'board = { locations = [{ name = "A" }, { name = "B" }], '
        'routes = [{ id = 0, a = "A", b = "C", color = "red", length = 1 }], '
        'tickets = [{ id = 0, a = "A", b = "B", points = 1 }] }\n'
    )
    text = tricky_map().split("[board]")[0].replace("[ fields . tickets ]", "[fields.routes]")
    text = inline + text.replace('returned = "bottom"', 'returned = "never"')
    problems = problems_of(text, source="inline.toml")
    found = summary(problems)
    assert (None, "route 0", "unknown location 'C'") in found
    assert (
        21,
        "[rules.tickets]",
        "'returned' must be one of ('bottom', 'discard', 'box'), not 'never'",
    ) in found
    assert_line_holds(text, 21, 'returned = "never"')


def test_line_numbers_are_checked_against_the_parsed_data() -> None:
    """The scanner's count of entries must agree with what TOML parsed, or
    no entry of that array gets a line."""
    from ttr_core.mapfiles.tomllines import Locator

    text = "xs = [\n  { a = 1 },\n  { a = 2 },\n]\n"
    assert Locator(text, {"xs": [{"a": 1}, {"a": 2}]}).line([("xs", 1)]) == 3
    assert Locator(text, {"xs": [{"a": 1}]}).line([("xs", 0)]) is None
    assert Locator(text, {"xs": [{"a": 1}, 2]}).line([("xs", 0)]) is None
    assert Locator(text, {"ys": []}).line([("xs",)]) is None


# Characters that a careless scanner would take for structure.
_TRICKY_CHARS = st.sampled_from(list("[]{},#=.\"'\\ \tab1é"))


@st.composite
def _toml_string(draw: st.DrawFn) -> str:
    """A TOML string of any of the four kinds, full of tricky characters."""
    kind = draw(st.sampled_from(["basic", "literal", "multi-basic", "multi-literal"]))
    newline = st.just("\n")
    chars = _TRICKY_CHARS if kind in ("basic", "literal") else st.one_of(_TRICKY_CHARS, newline)
    content = "".join(draw(st.lists(chars, max_size=12)))
    escaped = ""  # backslashes escaped; quotes escaped or not, never three in a row
    for char in content:
        if char == "\\":
            escaped += "\\\\"
        elif char == '"' and (kind == "basic" or escaped.endswith('""') or draw(st.booleans())):
            escaped += '\\"'
        else:
            escaped += char
    if kind == "basic":
        return f'"{escaped}"'
    if kind == "multi-basic":
        return f'"""{escaped}"""'
    if kind == "literal":
        return "'" + content.replace("'", "") + "'"
    return "'" * 3 + content.replace("'" * 3, "") + "'" * 3


@st.composite
def _array_text(draw: st.DrawFn) -> tuple[str, list[int]]:
    """``[board] xs = [...]``: inline tables, each on a new line or not, with
    comments and blank lines between; and the line each entry starts on."""
    text = "[board]\nxs = ["
    lines: list[int] = []
    count = draw(st.integers(1, 6))
    for i in range(count):
        if draw(st.booleans()):
            text += "\n"
            for comment in draw(st.lists(st.lists(_TRICKY_CHARS, max_size=8), max_size=2)):
                text += "  # " + "".join(comment) + "\n"
            text += "\n" * draw(st.integers(0, 1)) + "  "
        lines.append(text.count("\n") + 1)
        values = draw(st.lists(_toml_string(), min_size=1, max_size=3))
        text += f"{{ v = {values[0]}, w = [{', '.join(values)}, [1]] }}"
        if i < count - 1 or draw(st.booleans()):
            text += ","
        if draw(st.booleans()):
            text += " # " + "".join(draw(st.lists(_TRICKY_CHARS, max_size=8))) + "\n"
    return text + "\n]\n", lines


@settings(max_examples=200, deadline=None)
@given(_array_text())
def test_entry_lines_survive_any_strings_and_comments(case: tuple[str, list[int]]) -> None:
    from ttr_core.mapfiles.tomllines import Locator

    text, lines = case
    data = tomllib.loads(text)
    assert len(data["board"]["xs"]) == len(lines)
    locator = Locator(text, data)
    assert [locator.line([("board", "xs", i)]) for i in range(len(lines))] == lines
    assert locator.line([("board",)]) == 1
    assert locator.line([("board", "xs")]) == 2


def test_every_problem_is_still_reported_at_once() -> None:
    text = edited(
        SMALL_MAP,
        [
            ('a = "Alpha", b = "Beta", color = "red"', 'a = "Alpha", b = "Betta", color = "red"'),
            ('{ id = 1, a = "Beta", b = "Delta"', '{ id = 1, a = "Beta", b = "delta"'),
        ],
    )
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="small.toml")
    assert str(info.value) == (
        "2 problems in map data:\n"
        "  - small.toml:42: route 0: unknown location 'Betta'; did you mean 'Beta'?\n"
        "  - small.toml:49: ticket 1: 'delta' is another spelling of 'Delta': use the printed name"
    )


# ---------------------------------------------------------------------------
# 2 and 3. "Did you mean" and alias hints
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("Den Haag", f"'Den Haag' is an alias of {HAGUE}: use the printed name"),
        ("den  haag", f"'den  haag' is an alias of {HAGUE}: use the printed name"),
        ("s-gravenhage", f"'s-gravenhage' is another spelling of {HAGUE}: use the printed name"),
        ("’s Gravenhage", f"'’s Gravenhage' is another spelling of {HAGUE}: use the printed name"),
        ("ALPHA", "'ALPHA' is another spelling of 'Alpha': use the printed name"),
        ("Betta", "unknown location 'Betta'; did you mean 'Beta'?"),
        ("Den Haagg", f"unknown location 'Den Haagg'; did you mean {HAGUE}?"),
        ("Zanzibar", "unknown location 'Zanzibar'"),
    ],
)
def test_route_and_ticket_ends_name_the_location_meant(written: str, message: str) -> None:
    text = edited(
        SMALL_MAP,
        [
            ('{ id = 0, a = "Alpha", b = "Beta"', f'{{ id = 0, a = "{written}", b = "Beta"'),
            ('{ id = 4, a = "Alpha"', f'{{ id = 4, a = "{written}"'),
        ],
    )
    assert summary(problems_of(text)) == {(42, "route 0", message), (52, "ticket 4", message)}


def test_unknown_keys_and_fields_suggest_the_closest() -> None:
    text = edited(
        SMALL_MAP,
        [
            ("starting_hand = 3", "starting_hnd = 3"),
            ('{ name = "Alpha" }', '{ name = "Alpha", atraction = true }'),
            ('{ name = "Delta" }', '{ name = "Delta", alias = ["D"] }'),
            ("draw_keep = 1", "draw_kept = 1"),
        ],
    )
    found = summary(problems_of(text))
    assert (
        14,
        "[rules]",
        "unknown key 'starting_hnd' (expected one of: both_pair_routes_min_players, "
        "cards, cars_per_player, display_size, end_trigger_cars, max_face_up_wilds, "
        "route_points, start_scores, starting_hand, tickets, titles); did you mean "
        "'starting_hand'?",
    ) in found
    assert (
        24,
        "[rules.tickets]",
        "unknown key 'draw_kept' (expected one of: deck, draw, draw_keep, returned, start_dealt, "
        "start_keep, start_returned); did you mean 'draw_keep'?",
    ) in found
    assert (
        36,
        "location 0 ('Alpha')",
        "unknown field 'atraction' (expected one of: aliases, attraction, name, pos); "
        "did you mean 'attraction'?",
    ) in found
    assert (
        39,
        "location 3 ('Delta')",
        "unknown field 'alias' (expected one of: aliases, attraction, name, pos); "
        "did you mean 'aliases'?",
    ) in found


def test_route_kind_fields_name_the_location_meant() -> None:
    text = SMALL_MAP + '\n[fields.tickets]\nneutral = "route"\n'
    text = edited(
        text,
        [
            (
                'b = "\'s-Gravenhage", points = 3 }',
                'b = "\'s-Gravenhage", points = 3, neutral = ["Alpha", "Betta"] }',
            ),
            (
                '{ id = 1, a = "Beta", b = "Delta", points = 2 }',
                '{ id = 1, a = "Beta", b = "Delta", points = 2, neutral = ["den haag", "Beta"] }',
            ),
            (
                'b = "Beta", points = 1 }',
                'b = "Beta", points = 1, neutral = ["Alpha", "Nowhere"] }',
            ),
        ],
    )
    assert summary(problems_of(text)) == {
        (
            48,
            "ticket 0",
            "field 'neutral' must be [location, location], not ['Alpha', 'Betta']; "
            "did you mean 'Beta'?",
        ),
        (
            49,
            "ticket 1",
            f"field 'neutral': 'den haag' is an alias of {HAGUE}: use the printed name",
        ),
        (52, "ticket 4", "field 'neutral' must be [location, location], not ['Alpha', 'Nowhere']"),
    }


def test_location_kind_fields_name_the_location_meant() -> None:
    class Capital:
        @hookimpl
        def ttr_map_fields(self) -> list[MapField]:
            return [MapField("routes", "toward", LOCATION, None)]

    ttr_core.register_variant("capital-authoring", Capital())
    try:
        text = edited(
            SMALL_MAP,
            [
                ('color = "red", length = 1 }', 'color = "red", length = 1, toward = "Alpah" }'),
                (
                    'color = "blue", length = 2 }',
                    'color = "blue", length = 2, toward = "Den Haag" }',
                ),
                ('"gray", length = 1 }', '"gray", length = 1, toward = "’s-Gravenhage" }'),
            ],
        )
        assert summary(problems_of(text)) == {
            (
                42,
                "route 0",
                "field 'toward' must name a location, not 'Alpah'; did you mean 'Alpha'?",
            ),
            (
                43,
                "route 1",
                f"field 'toward': 'Den Haag' is an alias of {HAGUE}: use the printed name",
            ),
            (
                44,
                "route 2",
                f"field 'toward': '’s-Gravenhage' is another spelling of {HAGUE}: "
                "use the printed name",
            ),
        }
    finally:
        ttr_core.unregister_variant("capital-authoring")


def test_a_field_kind_suggests_the_closest() -> None:
    text = SMALL_MAP + '\n[fields.routes]\nscenic = "boolean"\n'
    (problem,) = problems_of(text)
    assert (problem.line, problem.entry, problem.message) == (
        57,
        "[fields.routes]",
        "field 'scenic': kind must be one of bool, int, str, location, route, list[int], "
        "list[str], list[location], not 'boolean'; "
        "did you mean 'bool'?",
    )


# ---------------------------------------------------------------------------
# 4. Warnings for maps that load but are probably wrong
# ---------------------------------------------------------------------------

OMEGA = [('{ name = "Delta" },', '{ name = "Delta" }, { name = "Omega" },')]
ISLAND = [
    ('{ name = "Delta" },', '{ name = "Delta" }, { name = "Omega" }, { name = "Psi" },'),
    (
        'b = "Alpha", color = "gray", length = 2 },',
        'b = "Alpha", color = "gray", length = 2 }, '
        '{ id = 4, a = "Omega", b = "Psi", color = "red", length = 1 },',
    ),
    ("routes = 4", "routes = 5"),
]
UNREACHED = "small.toml:39: location 4 ('Omega'): no route reaches it"
CUT_OFF = (
    "small.toml:{line}: ticket {id}: no chain of routes joins {a!r} and {b!r}: "
    "the ticket can never be completed"
)


def parse_recording(text: str) -> tuple[ttr_core.Board, list[warnings.WarningMessage]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        board = ttr_core.parse_map(text, source="small.toml")
    return board, caught


def test_a_location_no_route_reaches_is_warned_about() -> None:
    board, caught = parse_recording(edited(SMALL_MAP, OMEGA))
    assert board.locations[4].name == "Omega"  # the map loads
    assert [(w.category, str(w.message)) for w in caught] == [(MapWarning, UNREACHED)]
    assert caught[0].filename == __file__  # attributed to the caller of parse_map


def test_a_ticket_between_separate_networks_is_warned_about() -> None:
    text = edited(
        SMALL_MAP,
        [
            *ISLAND,
            (
                '{ id = 5, a = "\'s-Gravenhage", b = "Delta", points = 1 },',
                '{ id = 5, a = "\'s-Gravenhage", b = "Delta", points = 1 }, '
                '{ id = 6, a = "Psi", b = "Alpha", points = 9 },',
            ),
        ],
    )
    _, caught = parse_recording(text)
    expected = CUT_OFF.format(line=53, id=6, a="Psi", b="Alpha")
    assert [(w.category, str(w.message)) for w in caught] == [(MapWarning, expected)]


def test_each_doubt_is_one_warning() -> None:
    """An unreached location that a ticket names: two problems, two warnings;
    a cut-off network with no ticket across it: none."""
    text = edited(
        SMALL_MAP,
        [
            *OMEGA,
            (
                '{ id = 3, a = "Beta", b = "\'s-Gravenhage"',
                '{ id = 3, a = "Omega", b = "\'s-Gravenhage"',
            ),
        ],
    )
    _, caught = parse_recording(text)
    assert [str(w.message) for w in caught] == [
        UNREACHED,
        CUT_OFF.format(line=51, id=3, a="Omega", b="'s-Gravenhage"),
    ]
    assert all(w.category is MapWarning for w in caught)
    _, caught = parse_recording(edited(SMALL_MAP, ISLAND))
    assert caught == []


def test_map_warnings_can_be_silenced_or_made_errors() -> None:
    text = edited(SMALL_MAP, OMEGA)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MapWarning)
        assert len(ttr_core.parse_map(text, source="small.toml").locations) == 5
    with warnings.catch_warnings():
        warnings.simplefilter("error", MapWarning)
        with pytest.raises(MapWarning, match="no route reaches it"):
            ttr_core.parse_map(text, source="small.toml")
    assert issubclass(MapWarning, ttr_core.TtrWarning)
    assert issubclass(MapWarning, UserWarning)


def test_a_map_with_errors_gives_no_warnings() -> None:
    text = edited(SMALL_MAP, [*OMEGA, ("wild = 6", "wild = -1")])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(MapError):
            ttr_core.parse_map(text, source="small.toml")
    assert caught == []


def test_load_map_warns_with_the_file_name(tmp_path: Path) -> None:
    path = tmp_path / "lonely.toml"
    path.write_text(edited(SMALL_MAP, OMEGA), encoding="utf-8")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        ttr_core.load_map(path)
    assert [(w.category, str(w.message)) for w in caught] == [
        (MapWarning, UNREACHED.replace("small.toml", "lonely.toml"))
    ]
    assert caught[0].filename == __file__  # attributed to the caller of load_map


@pytest.mark.parametrize("name", ["newyork", "nederland", "usa"])
def test_built_in_maps_load_without_any_warning(name: str, tmp_path: Path) -> None:
    text = (MAPS / f"{name}.toml").read_text(encoding="utf-8")
    copy = tmp_path / f"{name}.toml"
    copy.write_text(text, encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ttr_core.parse_map(text, source=f"{name}.toml")
        ttr_core.load_map(copy)  # a fresh file: not served from the cache


def test_valid_maps_never_run_the_line_scanner(monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines are looked up only for problems and warnings: a valid map
    loads as fast as before."""
    import ttr_core.mapfiles.checker

    class NoScanning:
        def __init__(self, *args: object) -> None:
            raise AssertionError("the scanner ran for a valid map")

    monkeypatch.setattr(ttr_core.mapfiles.checker, "Locator", NoScanning)
    for name in ("newyork", "nederland", "usa"):
        ttr_core.parse_map((MAPS / f"{name}.toml").read_text(encoding="utf-8"), source=name)
    ttr_core.parse_map(TINY_MAP, source="tiny.toml")
