"""The map loader's limits: hostile map files are refused with ``MapError``, fast.

Each finding of issue 10 is a test here: huge card counts and player counts,
a gray route of length 10⁶, a 10 MB file, deep nesting, negative route
points, a route longer than a player's cars, control characters in names,
and arguments of the wrong type. Every limit is also tested at its edge: the
largest value allowed loads (and a first game plays), one more is refused.
The limits are written here as numbers (docs/map-format.md, "Limits"). Time
bounds are CPU time of this process spent on the work timed (``cpu_clock``), so
that neither a busy machine nor what earlier tests left alive fails them.
"""

from __future__ import annotations

import random
import tomllib
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ttr_core
from ttr_core import ArgumentError, MapError, TtrError
from ttr_core.mapfiles.tomllines import _exact_nesting_problem, nesting_problem

from .helpers import cpu_clock
from .test_maps import TINY_MAP, edited

MAPS = Path(__file__).resolve().parents[1] / "maps"
#: TINY_MAP without its [components] table, so that counts are not cross-checked.
PLAIN = TINY_MAP.split("[components]")[0] + "[board]" + TINY_MAP.split("[board]")[1]
ROUTE_3 = '{ id = 3, a = "Gamma", b = "Delta", color = "gray", length = 3 }'


def refused(text: str, *fragments: str, within: float = 1.0) -> MapError:
    """The ``MapError`` parsing ``text`` raises, within ``within`` seconds; each
    of ``fragments`` is in some problem's message."""
    with cpu_clock() as clock, pytest.raises(MapError) as info:
        ttr_core.parse_map(text, "hostile.toml")
    elapsed = clock()
    assert elapsed < within, f"refused after {elapsed:.2f} s"
    messages = "\n".join(str(p) for p in info.value.problems)
    for fragment in fragments:
        assert fragment in messages, f"{fragment!r} not in:\n{messages}"
    return info.value


def loads(text: str) -> ttr_core.Board:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.TtrWarning)
        return ttr_core.parse_map(text, "edge.toml")


def play(board: ttr_core.Board, players: int, actions: int = 30, within: float = 5.0) -> None:
    """A first game of ``actions`` random legal actions completes within ``within`` seconds."""
    with cpu_clock() as clock:
        state = ttr_core.new_game(board, players, seed=1, variants=[])
        rng = random.Random(1)
        for _ in range(actions):
            if ttr_core.is_over(state):
                break
            state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        elapsed = clock()
    assert elapsed < within, f"the first game took {elapsed:.2f} s"


def generated_map(
    *,
    locations: int = 4,
    routes: int = 5,
    tickets: int = 6,
    length: int = 1,
    colors: int = 2,
    cards: int = 20,
    wild: int = 10,
    players: int = 3,
    cars: int = 45,
    dealt: int = 2,
    deck: int = 0,
    color: str = "gray",
) -> str:
    """A valid map of the given size: routes and tickets join distinct pairs of places."""
    names = [f"Place {i:03d}" for i in range(locations)]
    pairs = []
    for step in range(1, locations // 2 + 1):
        for i in range(locations):
            pair = frozenset((i, (i + step) % locations))
            if len(pair) == 2 and pair not in pairs:
                pairs.append(pair)
    assert len(pairs) >= max(routes, tickets), "not enough pairs of places"
    colour_names = [f"colour{i}" for i in range(colors)]
    lines = [
        "format = 1",
        "[map]",
        'id = "generated"',
        'name = "Generated"',
        f"players = [2, {players}]",
        "[cards]",
        "colors = { " + ", ".join(f"{c} = {cards}" for c in colour_names) + " }",
        f"wild = {wild}",
        "[rules]",
        f"cars_per_player = {cars}",
        "starting_hand = 2",
        "display_size = 3",
        "max_face_up_wilds = 1",
        "end_trigger_cars = 1",
        "both_pair_routes_min_players = 3",
        "[rules.tickets]",
        f"start_dealt = {dealt}",
        "start_keep = 1",
        "draw = 2",
        "draw_keep = 1",
        'returned = "bottom"',
        f"deck = {deck}",
        "[rules.route_points]",
        *(f"{n} = {n}" for n in range(1, length + 1)),
        "[board]",
        "locations = [",
        *(f'  {{ name = "{name}" }},' for name in names),
        "]",
        "routes = [",
    ]
    for i, pair in enumerate(pairs[:routes]):
        a, b = sorted(pair)
        shade = color if color == "gray" else colour_names[i % colors]
        lines.append(
            f'  {{ id = {i}, a = "{names[a]}", b = "{names[b]}", color = "{shade}", '
            f"length = {length} }},"
        )
    lines += ["]", "tickets = ["]
    for i, pair in enumerate(pairs[:tickets]):
        a, b = sorted(pair)
        lines.append(f'  {{ id = {i}, a = "{names[a]}", b = "{names[b]}", points = 5 }},')
    lines.append("]")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The findings of issue 10
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("count", [10**6, 10**9, 10**18, 10**30])
def test_a_huge_number_of_cards_of_a_colour_is_refused(count: int) -> None:
    text = edited(PLAIN, [("red = 8", f"red = {count}")])
    refused(text, "colour 'red' must have a whole number of cards from 1 to 500")


def test_the_cards_per_kind_and_the_whole_deck_are_bounded() -> None:
    board = loads(edited(PLAIN, [("red = 8", "red = 500")]))
    assert board.total_cards == 500 + 8 + 6
    play(board, 3)
    refused(edited(PLAIN, [("red = 8", "red = 501")]), "from 1 to 500")
    refused(edited(PLAIN, [("wild = 6", "wild = 501")]), "'wild' must be a whole number from 0")
    full = loads(edited(PLAIN, [("red = 8, blue = 8", "red = 500, blue = 494")]))
    assert full.total_cards == 1000
    refused(
        edited(PLAIN, [("red = 8, blue = 8", "red = 500, blue = 495")]),
        "[cards]: 1001 cards: a deck may have at most 1000",
    )


def test_a_gray_route_of_length_a_million_is_refused() -> None:
    text = edited(
        PLAIN,
        [(ROUTE_3, ROUTE_3.replace("length = 3", "length = 1000000")), ("3 = 4", "1000000 = 5")],
    )
    refused(
        text,
        "route 3: 'length' must be a whole number from 1 to 20, not 1000000",
        "length '1000000' must be a whole number from 1 to 20",
    )


def test_a_route_longer_than_a_players_cars_is_refused() -> None:
    text = edited(PLAIN, [("cars_per_player = 6", "cars_per_player = 2")])
    refused(text, "route 3: length 3 is more than the 2 cars a player has")
    assert loads(edited(PLAIN, [("cars_per_player = 6", "cars_per_player = 3")]))


def test_a_gray_route_that_no_colour_can_pay_is_refused() -> None:
    edits = [
        ("red = 8, blue = 8", "red = 2, blue = 2"),
        ("wild = 6", "wild = 0"),
        ("starting_hand = 3", "starting_hand = 0"),
    ]
    refused(
        edited(PLAIN, edits),
        "route 3: needs 3 cards of one colour; the deck holds at most 2 with wilds",
    )
    shorter = (ROUTE_3, ROUTE_3.replace("length = 3", "length = 2"))
    assert loads(edited(PLAIN, [*edits, shorter])).routes[3].length == 2


def test_a_ten_megabyte_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = tmp_path / "huge.toml"
    path.write_text(TINY_MAP + ("# padding padding padding\n" * 400_000), encoding="utf-8")
    assert path.stat().st_size > 10 * 10**6
    with cpu_clock() as clock:
        with pytest.raises(
            MapError, match=r"the file is \d+ bytes: a map file may have at most 262144"
        ):
            ttr_core.load_map(path)
        with pytest.raises(MapError, match="at most 262144 bytes"):
            ttr_core.parse_map(path.read_text(encoding="utf-8"))
        assert clock() < 1.0


def test_a_file_of_the_largest_size_loads_and_one_byte_more_is_refused(tmp_path: Path) -> None:
    size = len(TINY_MAP.encode())
    padding = "#" * (262144 - size - 1) + "\n"
    path = tmp_path / "padded.toml"
    path.write_text(TINY_MAP + padding, encoding="utf-8")
    assert path.stat().st_size == 262144
    assert ttr_core.load_map(path).id == "tiny"
    with open(path, "a", encoding="utf-8") as more:
        more.write("\n")
    with pytest.raises(MapError, match="262145 bytes"):
        ttr_core.load_map(path)


@pytest.mark.parametrize(("opening", "closing"), [("[", "]"), ("{ a = ", " }"), ("[{ a = ", " }]")])
@pytest.mark.parametrize("depth", [11, 1000, 20_000])
def test_deep_nesting_is_refused_before_toml_recurses(
    opening: str, closing: str, depth: int
) -> None:
    value = opening * depth + "1" + closing * depth
    text = PLAIN.replace("[cards]", f"x = {value}\n\n[cards]")
    error = refused(text, "arrays and inline tables nested more than 10 deep")
    assert error.problems[0].line == PLAIN[: PLAIN.index("[cards]")].count("\n") + 1


def test_nesting_ten_deep_is_parsed_and_then_reported_as_an_unknown_key() -> None:
    text = PLAIN.replace("[cards]", f"x = {'[' * 10}1{']' * 10}\n\n[cards]")
    error = refused(text, "unknown key 'x'")
    assert "nested" not in str(error)


@pytest.mark.parametrize(
    "text",
    [
        "a" + ".a" * 100_000 + " = 1\n",
        "[a" + ".a" * 100_000 + "]\n",
        'x = { "a"' + '."a"' * 50_000 + " = 1 }\n",
    ],
    ids=["key", "table header", "quoted, inline"],
)
def test_a_dotted_key_of_a_hundred_thousand_parts_is_refused(text: str) -> None:
    # tomllib builds every prefix of a dotted key: this once exhausted memory.
    refused(text, "a dotted key of more than 10 parts")


def test_brackets_and_dots_inside_strings_and_comments_do_not_count() -> None:
    text = PLAIN.replace(
        'name = "Tiny Test Map"',
        'name = "Tiny [[[[[[[[[[[[ a.b.c.d.e.f.g.h.i.j.k.l"  # {{{{{{{{{{{{ a.b.c.d.e.f.g.h.i.j.k',
    )
    assert loads(text).name.startswith("Tiny [[[[")
    # The map's name is a text: it may break lines. A location's name may not.
    multi = PLAIN.replace('name = "Tiny Test Map"', "name = '''Tiny\n[[[[[[[[[[[[['''")
    assert loads(multi).name == "Tiny\n[[[[[[[[[[[[["
    located = multi.replace('{ name = "Gamma" }', "{ name = '''Gam\nma''' }")
    refused(located, "location 2: 'name' must not contain control characters (U+000A)")


@pytest.mark.parametrize("players", [10**20, 10**9, 1000, 9])
def test_a_huge_player_count_is_refused(players: int) -> None:
    text = edited(PLAIN, [("players = [2, 3]", f"players = [2, {players}]")])
    refused(text, "'players' must be [min, max] with 1 ≤ min ≤ max ≤ 8")


def test_eight_players_load_and_play() -> None:
    board = loads(generated_map(players=8, locations=8, routes=16, tickets=16))
    assert board.rules.max_players == 8
    play(board, 8)


def test_a_number_too_long_for_python_to_read_is_a_map_error() -> None:
    text = edited(PLAIN, [("wild = 6", "wild = " + "9" * 5000)])
    error = refused(text, "a whole number of more than 4300 digits")
    assert error.problems[0].line == PLAIN[: PLAIN.index("wild = 6")].count("\n") + 1


@pytest.mark.parametrize(
    ("edit", "fragment"),
    [
        (
            ('{ id = 0, a = "Alpha", b = "Beta", c', '{ id = 10000000, a = "Alpha", b = "Beta", c'),
            "'id' must be a whole number from 0 to 1000000",
        ),
        (('"red", length = 2, pair = 1', '"red", length = 2, pair = 10000001'), "'pair' must be"),
        (
            ('returned = "discard"', 'returned = "discard"\ndeck = 99999999999999999999'),
            "'deck' must be a whole number from 0 to 1000",
        ),
        (("cars_per_player = 6", "cars_per_player = 201"), "from 1 to 200"),
        (("display_size = 3", "display_size = 21"), "'display_size' must be a whole number from 1"),
        (
            ("start_dealt = 2", "start_dealt = 11"),
            "'start_dealt' must be a whole number from 1 to 10",
        ),
        (("draw = 2", "draw = 1000000000"), "'draw' must be a whole number from 1 to 10"),
        (("starting_hand = 3", "starting_hand = 101"), "from 0 to 100"),
        (("end_trigger_cars = 1", "end_trigger_cars = 6"), "end_trigger_cars (6) must be less"),
        (
            ("both_pair_routes_min_players = 3", "both_pair_routes_min_players = 10000000"),
            "'both_pair_routes_min_players' must be a whole number from 1 to 1000000",
        ),
        (('b = "Beta", points = 1', 'b = "Beta", points = 1001'), "from 1 to 1000"),
        (("2 = 2", "2 = 1001"), "points for length 2 must be a whole number from 0 to 1000"),
    ],
)
def test_every_number_is_bounded(edit: tuple[str, str], fragment: str) -> None:
    refused(edited(PLAIN, [edit]), fragment)


def test_negative_route_points_are_refused() -> None:
    refused(
        edited(PLAIN, [("2 = 2", "2 = -2")]),
        "points for length 2 must be a whole number from 0 to 1000, not -2",
    )
    assert loads(edited(PLAIN, [("2 = 2", "2 = 0")])).rules.route_points[2] == 0


def test_start_scores_are_bounded() -> None:
    base = edited(
        PLAIN,
        [
            (
                "both_pair_routes_min_players = 3",
                "both_pair_routes_min_players = 3\nstart_scores = [0, 1, 2]",
            )
        ],
    )
    assert loads(base).rules.start_scores == (0, 1, 2)
    refused(base.replace("[0, 1, 2]", "[0, 1, 10000000]"), "'start_scores' must list")
    refused(base.replace("[0, 1, 2]", "[" + "0, " * 9 + "0]"), "at most 8 entries")


CONTROLS = ["\x00", "\x1b", "\x7f", "\u0085", "\u202e", "\u200b", "\u2028", "\u2029", "\ufeff"]
NAMED = [
    ('name = "Tiny Test Map"', 'name = "Tiny@Test Map"', "[map]", "'name'"),
    ('id = "tiny"', 'id = "ti@ny"', "[map]", "'id'"),
    ('aliases = ["tiny-test"]', 'aliases = ["tiny@test"]', "[map]", "'aliases'"),
    ("variants = []", 'variants = ["a@b"]', "[map]", "'variants'"),
    ('wild_name = "joker"', 'wild_name = "jo@ker"', "[cards]", "'wild_name'"),
    ("red = 8, blue = 8", '"r@ed" = 8, blue = 8', "[cards]", "colour"),
    ('{ name = "Gamma" }', '{ name = "Gam@ma" }', "location 2", "'name'"),
    ('{ name = "Gamma" }', '{ name = "Gamma", aliases = ["G@"] }', "location 2", "'aliases'"),
]


@pytest.mark.parametrize("char", CONTROLS, ids=[f"U+{ord(c):04X}" for c in CONTROLS])
@pytest.mark.parametrize(("old", "new", "entry", "what"), NAMED, ids=[n[3] + n[2] for n in NAMED])
def test_control_characters_in_names_are_refused(
    char: str, old: str, new: str, entry: str, what: str
) -> None:
    escaped = char.encode("unicode_escape").decode().replace("\\x", "\\u00")
    text = edited(PLAIN, [(old, new.replace("@", escaped))])
    error = refused(text, f"must not contain control characters (U+{ord(char):04X})")
    assert any(p.entry.startswith(entry) and what in p.message for p in error.problems)


def test_control_characters_in_provenance_and_fields_are_refused() -> None:
    text = PLAIN + '\n[provenance]\nsummary = "read off\\u202ea photo"\n'
    refused(text, "'summary' must not contain control characters (U+202E)")
    text = PLAIN.replace("[board]", '[fields.locations]\nnote = "str"\n\n[board]').replace(
        '{ name = "Gamma" }', '{ name = "Gamma", note = "a\\u0000b" }'
    )
    refused(text, "field 'note' must not contain control characters (U+0000)")


def test_a_lone_surrogate_in_text_is_refused() -> None:
    refused(PLAIN.replace("Tiny Test Map", "Tiny \ud800 Map"), "U+D800")


def test_names_are_bounded_in_length() -> None:
    long = "N" * 100
    board = loads(PLAIN.replace('"Gamma"', f'"{long}"'))
    assert board.locations[2].name == long
    refused(PLAIN.replace('"Gamma"', f'"{long}N"'), "must be at most 100 characters, not 101")
    refused(
        PLAIN + f'\n[provenance]\nsummary = "{"s" * 2001}"\n',
        "'summary' must be at most 2000 characters, not 2001",
    )


def test_lists_of_names_are_bounded() -> None:
    aliases = ", ".join(f'"g{i}"' for i in range(21))
    refused(
        PLAIN.replace('{ name = "Gamma" }', f'{{ name = "Gamma", aliases = [{aliases}] }}'),
        "'aliases' must list at most 20 names, not 21",
    )
    refused(
        PLAIN.replace("variants = []", f"variants = [{aliases}]"),
        "'variants' must list at most 20 names",
    )
    # An empty alias would make load_map("") find the map (found by the fuzz).
    refused(PLAIN.replace('aliases = ["tiny-test"]', 'aliases = [""]'), "must not be empty")
    refused(PLAIN.replace("variants = []", 'variants = [" "]'), "must not be empty")


# ---------------------------------------------------------------------------
# Counts of entries
# ---------------------------------------------------------------------------


def test_too_many_routes_are_refused_without_checking_each() -> None:
    text = generated_map(locations=50, routes=1001, tickets=6)
    error = refused(text, "[board]: 1001 routes: a map may have at most 1000")
    assert len(error.problems) == 1


def test_too_many_locations_and_tickets_are_refused() -> None:
    refused(
        generated_map(locations=201, routes=201, tickets=6),
        "201 locations: a map may have at most 200",
    )
    refused(
        generated_map(locations=50, routes=50, tickets=1001),
        "1001 tickets: a map may have at most 1000",
    )


def test_too_many_colours_are_refused() -> None:
    refused(generated_map(colors=13, cards=10), "13 card colours: a map may have at most 12")


def test_the_route_spaces_are_bounded() -> None:
    text = generated_map(locations=80, routes=101, length=15, cars=200, cards=100, colors=2)
    refused(text, "1515 route spaces: a map may have at most 1500")


def test_a_map_at_every_limit_loads_and_plays_quickly() -> None:
    text = generated_map(
        locations=200,
        routes=1000,
        tickets=1000,
        length=1,
        colors=12,
        cards=80,
        wild=40,
        players=8,
        cars=200,
        dealt=10,
    )
    # Lengthen some routes up to the 1500 spaces allowed, to the longest allowed.
    longest = text.replace("length = 1 },", "length = 20 },", 26).replace(
        "[rules.route_points]\n1 = 1", "[rules.route_points]\n1 = 1\n20 = 30"
    )
    assert len(longest.encode()) < 262144
    with cpu_clock() as clock:
        board = loads(longest)
        assert clock() < 2.0
    assert board.total_spaces == 974 + 26 * 20
    assert board.total_spaces <= 1500
    play(board, 8, within=10.0)


def test_a_generated_ticket_deck_of_the_largest_size_is_quick() -> None:
    text = generated_map(locations=200, routes=600, tickets=10, deck=1000, cars=60)
    with cpu_clock() as clock:
        with pytest.warns(ttr_core.GeneratedTicketsWarning):
            board = ttr_core.parse_map(text, "deck.toml")
        assert clock() < 3.0
    assert len(board.tickets) == 1000
    refused(
        text.replace("deck = 1000", "deck = 1001"), "'deck' must be a whole number from 0 to 1000"
    )


# ---------------------------------------------------------------------------
# Speed on hostile text, and the number of problems listed
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "junk",
    [
        "junk = [" + "1," * 120_000 + "]\n",
        "junk = [" + '"x",' * 60_000 + "]\n",
        "junk = [" + "[]," * 80_000 + "]\n",
        "".join(f"junk{i} = 1\n" for i in range(18_000)),
    ],
    ids=["ints", "strings", "arrays", "keys"],
)
def test_a_file_of_junk_at_the_size_limit_is_refused_in_well_under_a_second(junk: str) -> None:
    text = PLAIN + "\n[x]\n" + junk
    assert len(text.encode()) < 262144
    refused(text, "unknown key 'x'", within=1.0)


def test_the_problems_listed_are_capped_and_the_rest_counted() -> None:
    # 45 routes and 6 tickets, each with two unknown ends: 102 problems.
    text = generated_map(locations=10, routes=45, tickets=6)
    text = text.replace('{ name = "Place', '{ name = "Elsewhere')
    error = refused(text, "unknown location 'Place 000'")
    assert len(error.problems) == 101
    assert error.problems[-1].entry == "file"
    assert error.problems[-1].message == "2 more problems not listed (at most 100 are)"


def test_a_real_map_still_parses_in_milliseconds() -> None:
    text = (MAPS / "usa.toml").read_text(encoding="utf-8")
    times = []
    for _ in range(5):
        with cpu_clock() as clock:
            ttr_core.parse_map(text, "usa.toml")
            times.append(clock())
    assert min(times) < 0.05


# ---------------------------------------------------------------------------
# Arguments of the wrong type
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, 3, b"newyork", ["newyork"]])
def test_load_map_with_a_wrong_type_raises_argument_error(value: object) -> None:
    with pytest.raises(ArgumentError, match=f"name_or_path must be .*not {type(value).__name__}"):
        ttr_core.load_map(value)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, b"format = 1", 3.5])
def test_parse_map_with_a_wrong_type_raises_argument_error(value: object) -> None:
    with pytest.raises(ArgumentError, match=f"text must be a str .*not {type(value).__name__}"):
        ttr_core.parse_map(value)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="source must be a str"):
        ttr_core.parse_map(PLAIN, source=value)  # type: ignore[arg-type]


def test_argument_errors_are_type_errors_and_ttr_errors() -> None:
    with pytest.raises(TypeError):
        ttr_core.parse_map(None)  # type: ignore[arg-type]
    with pytest.raises(TtrError):
        ttr_core.load_map(None)  # type: ignore[arg-type]


def test_parse_ticket_deck_with_wrong_types_raises_argument_error() -> None:
    board = ttr_core.load_map("newyork")
    deck = ttr_core.ticket_deck_toml(board, board.tickets)
    with pytest.raises(ArgumentError, match="text must be a str"):
        ttr_core.parse_ticket_deck(None, board)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"board must be a ttr_core\.Board, not str"):
        ttr_core.parse_ticket_deck(deck, "newyork")  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match=r"source must be a str .*not int"):
        ttr_core.parse_ticket_deck(deck, board, 3)  # type: ignore[arg-type]
    assert ttr_core.parse_ticket_deck(deck, board) == board.tickets


@pytest.mark.parametrize("name", ["new\x00york", "x" * 5000, "x" * 5000 + ".toml", ""])
def test_odd_map_names_are_unknown_maps(name: str) -> None:
    with pytest.raises(ttr_core.UnknownMapError):
        ttr_core.load_map(name)


def test_a_ticket_deck_file_is_bounded_like_a_map() -> None:
    board = ttr_core.load_map("newyork")
    deep = "format = 1\n[board]\ntickets = " + "[" * 50_000 + "]" * 50_000 + "\n"
    with pytest.raises(MapError, match="nested more than 10 deep"):
        ttr_core.parse_ticket_deck(deep, board)
    many = "format = 1\n[board]\ntickets = [\n" + "{},\n" * 1001 + "]\n"
    with pytest.raises(MapError, match="1001 tickets: a deck may have at most 1000"):
        ttr_core.parse_ticket_deck(many, board)


def test_a_built_in_map_edited_by_hand_still_loads(tmp_path: Path) -> None:
    # The limits leave every built-in map well inside them.
    for path in sorted(MAPS.glob("*.toml")):
        copy = tmp_path / path.name
        copy.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
            board = ttr_core.load_map(copy)
        play(board, board.rules.max_players, actions=20)


def test_tiny_map_edits_used_here_are_valid() -> None:
    # The base of these tests loads, so each refusal above is the edit's doing.
    assert loads(PLAIN).id == "tiny"
    assert len(loads(generated_map()).routes) == 5


# ---------------------------------------------------------------------------
# The scan before tomllib
# ---------------------------------------------------------------------------

PIECES = ["[", "]", "{", "}", '"', "'", '"""', "'''", "#", "\n", ".", "a", " ", "\\", "="]
PIECES += [",", "a.a.a.a.a", '"x"', '"a.b.c"', "'a.b'", "[[", "]]", "\t", "1.5"]


@settings(max_examples=300)
@given(st.lists(st.sampled_from(PIECES), max_size=60), st.integers(1, 4), st.integers(1, 5))
def test_the_quick_nesting_scan_flags_whatever_the_exact_scan_finds(
    pieces: list[str], depth: int, parts: int
) -> None:
    # The quick look (regular expressions only) decides for every map that
    # loads; the exact scan runs only on what it flags, and gives the line.
    text = "".join(pieces)
    assert nesting_problem(text, depth, parts) == _exact_nesting_problem(text, depth, parts)


@pytest.mark.parametrize(
    "text",
    [
        'site."example.com.a.b.c.d.e.f.g.h.i.j" = 1',  # dots in a quoted part do not count
        "a = [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5]",
        'a = """x""""\nb = 1',  # a closing delimiter after a quote of content
    ],
)
def test_what_is_not_nested_is_not_flagged(text: str) -> None:
    assert nesting_problem(text, 2, 2) is None
    tomllib.loads(text)
