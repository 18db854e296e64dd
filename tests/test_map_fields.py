"""Map-declared variant fields ([fields]), field kinds, and location aliases."""

from __future__ import annotations

import pytest

import ttr_core
from ttr_core import MapError

from .test_maps import TINY_MAP, assert_reported, edited

FIELDS = '\n[fields.tickets]\nneutral = "route"\n\n[fields.routes]\nscenic = "bool"\n\n[board]'


def with_fields(*edits: tuple[str, str]) -> str:
    return edited(TINY_MAP, [("\n[board]", FIELDS), *edits])


def test_a_map_may_declare_fields_no_installed_plugin_reads() -> None:
    text = with_fields(
        (
            '{ id = 0, a = "Alpha", b = "Beta", points = 1 }',
            '{ id = 0, a = "Alpha", b = "Beta", points = 1, neutral = ["Gamma", "Beta"] }',
        ),
        (
            '{ id = 0, a = "Alpha", b = "Beta", color = "red", length = 1 }',
            '{ id = 0, a = "Alpha", b = "Beta", color = "red", length = 1, scenic = true }',
        ),
    )
    board = ttr_core.parse_map(text, source="x.toml")
    assert board.tickets[0].extra["neutral"] == ("Gamma", "Beta")
    assert board.tickets[1].extra["neutral"] is None  # absent: the default
    assert board.routes[0].extra["scenic"] is True


def test_field_values_are_checked_against_their_kind() -> None:
    text = with_fields(
        (
            '{ id = 0, a = "Alpha", b = "Beta", points = 1 }',
            '{ id = 0, a = "Alpha", b = "Beta", points = 1, neutral = ["Alpha", "Gamma"] }',
        ),
        (
            '{ id = 1, a = "Alpha", b = "Gamma", points = 3 }',
            '{ id = 1, a = "Alpha", b = "Gamma", points = 3, neutral = ["Alpha", "Atlantis"] }',
        ),
        (
            '{ id = 2, a = "Alpha", b = "Delta", points = 1 }',
            '{ id = 2, a = "Alpha", b = "Delta", points = 1, neutral = "Alpha" }',
        ),
        (
            '{ id = 0, a = "Alpha", b = "Beta", color = "red", length = 1 }',
            '{ id = 0, a = "Alpha", b = "Beta", color = "red", length = 1, scenic = 1 }',
        ),
    )
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    assert_reported(info.value, "x.toml", "ticket 0", "no route joins 'Alpha' and 'Gamma'")
    assert_reported(info.value, "x.toml", "ticket 1", "must be [location, location]")
    assert_reported(info.value, "x.toml", "ticket 2", "must be [location, location]")
    assert_reported(info.value, "x.toml", "route 0", "must be of type bool")
    assert len(info.value.problems) == 4


def test_bad_field_declarations_are_reported() -> None:
    text = edited(
        TINY_MAP,
        [
            (
                "\n[board]",
                '\n[fields.cities]\nx = "bool"\n\n[fields.tickets]\nodd = "float"\npoints = "int"\n'
                '\n[fields.locations]\nattraction = "int"\n\n[board]',
            )
        ],
    )
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(text, source="x.toml")
    problems = info.value
    assert_reported(problems, "x.toml", "[fields.cities]", "unknown table 'cities'")
    assert_reported(problems, "x.toml", "[fields.tickets]", "kind must be one of")
    assert_reported(problems, "x.toml", "[fields.tickets]", "core key")
    assert_reported(problems, "x.toml", "[fields.locations]", "by an installed variant")


def test_a_map_may_repeat_a_plugin_field_with_the_same_kind() -> None:
    text = edited(TINY_MAP, [("\n[board]", '\n[fields.locations]\nattraction = "bool"\n\n[board]')])
    board = ttr_core.parse_map(text, source="x.toml")
    assert board.locations[1].extra["attraction"] is True


def test_location_aliases_name_a_place_and_must_not_collide() -> None:
    text = edited(
        TINY_MAP,
        [('{ name = "Gamma" }', '{ name = "Gamma", aliases = ["Third Place", "Gämma-City"] }')],
    )
    board = ttr_core.parse_map(text, source="x.toml")
    assert board.location("third place").name == "Gamma"
    assert board.location("gamma city").name == "Gamma"
    assert board.location("Gamma").aliases == ("Third Place", "Gämma-City")
    clash = edited(TINY_MAP, [('{ name = "Gamma" }', '{ name = "Gamma", aliases = ["ALPHA"] }')])
    with pytest.raises(MapError) as info:
        ttr_core.parse_map(clash, source="x.toml")
    assert_reported(info.value, "x.toml", "location 2 ('Gamma')", "taken by location 'Alpha'")


def test_a_location_kind_field_names_an_existing_location() -> None:
    from ttr_core import LOCATION, MapField, hookimpl

    class Capital:
        @hookimpl
        def ttr_map_fields(self) -> list[MapField]:
            return [MapField("routes", "toward", LOCATION, None)]

    ttr_core.register_variant("capital", Capital())
    try:
        good = edited(
            TINY_MAP,
            [('color = "red", length = 1 }', 'color = "red", length = 1, toward = "Beta" }')],
        )
        assert ttr_core.parse_map(good, "x.toml").routes[0].extra["toward"] == "Beta"
        bad = edited(
            TINY_MAP,
            [('color = "red", length = 1 }', 'color = "red", length = 1, toward = "Nowhere" }')],
        )
        with pytest.raises(MapError) as info:
            ttr_core.parse_map(bad, "x.toml")
        assert_reported(info.value, "x.toml", "route 0", "must name a location")
    finally:
        ttr_core.unregister_variant("capital")
