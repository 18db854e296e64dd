"""Bad data is refused where it enters, naming what is wrong.

A view or state read from JSON is checked against what its variants declare
for that game (hook ``ttr_view_types``, per-seat shapes included), so that a
later call cannot fail inside a plugin; a variant is refused on a map it
cannot be played on, or named twice; ``determinize`` takes the seeds
``new_game`` takes; ``register_variant`` takes plugins under short names.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

import ttr_core
from ttr_core import (
    ArgumentError,
    DataError,
    GameConfigError,
    GameState,
    MapField,
    PlayerView,
    PluginError,
    determinize,
    from_json,
    hookimpl,
    new_game,
    player_view,
    to_json,
)

from .helpers import new_started

Doc = dict[str, Any]


def _view_doc(map_name: str, players: int, variants: Any = None) -> Doc:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        state = new_game(map_name, players, seed=3, variants=variants)
    doc: Doc = json.loads(to_json(player_view(state, 0)))
    return doc


def _refused(doc: Doc, kind: Any) -> DataError:
    with pytest.raises(DataError) as err:
        from_json(json.dumps(doc), kind)
    return err.value


# -- player views ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("map_name", "players", "variants"),
    [
        ("newyork", 2, None),
        ("usa", 4, None),
        ("amsterdam", 3, None),
        ("nederland", 3, None),
        ("nederland", 2, ["tolls", "neutral"]),
    ],
)
def test_views_of_every_map_read_back_equal(map_name: str, players: int, variants: Any) -> None:
    doc = _view_doc(map_name, players, variants)
    view = from_json(json.dumps(doc), PlayerView)
    assert to_json(view) == json.dumps(doc, ensure_ascii=False)
    # A view read back can be determinized: what it shows has the shapes the plugins use.
    assert player_view(determinize(view, 1), 0) == view


@pytest.mark.parametrize(
    ("game", "change", "path", "fragment"),
    [
        (
            ("nederland", 3, ["tolls"]),
            lambda v: v.update({"tolls.loans": [0, 0]}),
            "variants.tolls.loans",
            "list of 3 items",
        ),
        (
            ("nederland", 3, ["tolls"]),
            lambda v: v.update({"tolls.holdings": "30"}),
            "variants.tolls.holdings",
            "whole number",
        ),
        (
            ("amsterdam", 3, None),
            lambda v: v.update({"merchandise.held": 3}),
            "variants.merchandise.held",
            "list of 3 items",
        ),
        (
            ("nederland", 2, ["tolls", "neutral"]),
            lambda v: v.update({"neutral.revealed": "7"}),
            "variants.neutral.revealed",
            "",
        ),
        (("nederland", 3, ["tolls"]), lambda v: v.pop("tolls.holdings"), "variants", "missing"),
        (
            ("nederland", 3, ["tolls"]),
            lambda v: v.update({"tolls.extra": 1}),
            "variants.tolls.extra",
            "no such entry",
        ),
        (
            ("newyork", 2, None),
            lambda v: v.update({"tolls.loans": [0, 0]}),
            "variants.tolls.loans",
            "no variant of the game",
        ),
    ],
)
def test_a_view_whose_variant_entries_are_malformed_is_refused_with_the_path(
    game: tuple[str, int, Any], change: Callable[[Doc], Any], path: str, fragment: str
) -> None:
    doc = _view_doc(*game)
    change(doc["variants"])
    err = _refused(doc, PlayerView)
    assert err.path == path, err
    assert fragment in err.message


@pytest.mark.parametrize(
    "names", [["tolls", "tolls"], ["nope"], ["merchandise"]], ids=["twice", "unknown", "no carts"]
)
def test_a_view_of_a_game_that_cannot_be_configured_is_refused(names: list[str]) -> None:
    doc = _view_doc("nederland", 3, ["tolls"])
    doc["variant_names"] = names
    doc["options"] = [[n, []] for n in names if n == "tolls"][:1]
    assert _refused(doc, PlayerView).path == "variant_names"


class ShowsSecrets:
    """Declares its view entries with a value that is not a type."""

    @hookimpl
    def ttr_player_view(self) -> Mapping[str, Any]:
        return {"shows.x": 1}

    @hookimpl
    def ttr_view_types(self) -> Mapping[str, Any]:
        return {"shows.x": 5}


def test_view_types_that_are_not_types_name_the_plugin() -> None:
    ttr_core.register_variant("shows", ShowsSecrets())
    try:
        state = new_game("newyork", 2, seed=1, variants=["shows"])
        text = to_json(player_view(state, 0))
        with pytest.raises(PluginError, match="not a type") as err:
            from_json(text, PlayerView)
    finally:
        ttr_core.unregister_variant("shows")
    assert (err.value.variant, err.value.hook) == ("shows", "ttr_view_types")


# -- states ------------------------------------------------------------------------


def _state_doc(variants: Any = None, map_name: str = "nederland", players: int = 3) -> Doc:
    doc: Doc = json.loads(to_json(new_started(players, seed=2, variants=variants, map=map_name)))
    return doc


@pytest.mark.parametrize("kind", ["wild", "neutral.choose", "tollsx.pick", ""])
def test_a_decision_nobody_owns_is_refused(kind: str) -> None:
    doc = _state_doc(["tolls"])
    doc["pending"]["kind"] = kind
    err = _refused(doc, GameState)
    assert err.path == "pending.kind", err
    assert "neither a core decision" in err.message


def test_a_decision_of_the_core_or_a_variant_of_the_game_is_read() -> None:
    doc = _state_doc(["tolls"])
    assert from_json(json.dumps(doc), GameState).pending.kind == "turn"  # type: ignore[union-attr]
    # Named after a variant of the game, but no action of it answers: refused.
    doc["pending"]["kind"] = "tolls.pay"
    with pytest.raises(DataError, match="no action can answer"):
        from_json(json.dumps(doc), GameState)
    # A variant's own decision, as play reaches it, reads back.
    import random

    state = ttr_core.new_game("nederland", 2, seed=2, variants=["tolls", "neutral"])
    rng = random.Random(2)
    while state.pending is not None and not state.pending.kind.startswith("neutral."):
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    assert state.pending is not None, "no neutral decision in this game"
    assert from_json(ttr_core.to_json(state), GameState) == state


@pytest.mark.parametrize(
    ("variants", "map_name", "change", "path"),
    [
        (["tolls"], "nederland", lambda s: s["tolls"].update(loans=[0, 0]), "tolls.loans"),
        (
            ["tolls"],
            "nederland",
            lambda s: s["tolls"].update(holdings=[30, -1, 31]),
            "tolls.holdings",
        ),
        (None, "amsterdam", lambda s: s["merchandise"].update(held=[0, 0]), "merchandise.held"),
    ],
)
def test_a_variant_state_of_the_wrong_shape_names_its_field(
    variants: Any, map_name: str, change: Callable[[Doc], Any], path: str
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        doc = _state_doc(variants, map_name)
    change(doc["variant_state"])
    assert _refused(doc, GameState).path == f"variant_state.{path}"


def test_a_state_naming_a_variant_twice_is_refused() -> None:
    doc = _state_doc(["tolls"])
    doc["variants"] = ["tolls", "tolls"]
    err = _refused(doc, GameState)
    assert err.path == "variants" and "named twice" in err.message


# -- variants where they cannot play -------------------------------------------------


@pytest.mark.parametrize(
    ("map_name", "variants", "variant", "field"),
    [
        ("newyork", ["tolls"], "tolls", "'toll' on routes"),
        ("usa", ["longest_route", "merchandise"], "merchandise", "'merchandise' on routes"),
        ("nederland", ["attractions"], "attractions", "'attraction' on locations"),
        ("usa", ["tolls", "neutral"], "tolls", "'toll' on routes"),
    ],
)
def test_a_variant_is_refused_on_a_map_without_its_fields(
    map_name: str, variants: list[str], variant: str, field: str
) -> None:
    with pytest.raises(GameConfigError) as err:
        new_game(map_name, 2, seed=0, variants=variants)
    assert err.value.variant == variant
    assert field in str(err.value) and map_name in str(err.value)


def test_variants_needing_no_field_play_anywhere() -> None:
    assert new_game("newyork", 2, seed=0, variants=["longest_route"]).rules.variants == (
        "longest_route",
    )
    ned = new_game("nederland", 2, seed=0, variants=["tolls", "neutral"])
    assert ned.rules.variants == ("tolls", "neutral")


class NeedsFerries:
    @hookimpl
    def ttr_map_fields(self) -> list[MapField]:
        return [MapField("routes", "ferry_x", int, 0, needed=True)]


class NeedsWhat:
    @hookimpl
    def ttr_map_fields(self) -> list[MapField]:
        return [MapField("routes", "ferry_y", int, 0, needed="yes")]  # type: ignore[arg-type]


def test_a_third_party_variant_declares_what_it_needs() -> None:
    ttr_core.register_variant("ferries", NeedsFerries())
    try:
        with pytest.raises(GameConfigError, match="'ferry_x' on routes"):
            new_game("usa", 2, seed=0, variants=["ferries"])
    finally:
        ttr_core.unregister_variant("ferries")
    with pytest.raises(PluginError, match="needed"):
        ttr_core.register_variant("what", NeedsWhat())


@pytest.mark.parametrize(
    "variants", [["tolls", "tolls"], ["attractions", "longest_route", "attractions"]]
)
def test_a_variant_named_twice_is_refused(variants: list[str]) -> None:
    board = "nederland" if "tolls" in variants else "newyork"
    with pytest.raises(GameConfigError, match="named twice"):
        new_game(board, 2, seed=0, variants=variants)


# -- seeds and registrations -----------------------------------------------------------


@pytest.mark.parametrize("seed", [-1, 2**256, 2**1000])
def test_determinize_refuses_the_seeds_new_game_refuses(seed: int) -> None:
    view = player_view(new_started(2, seed=1), 0)
    with pytest.raises(ArgumentError, match="2\\*\\*256") as err:
        determinize(view, seed)
    assert len(str(err.value)) < 200
    with pytest.raises(ArgumentError):
        new_game("newyork", 2, seed=seed)
    assert determinize(view, 2**256 - 1).board is view.board


@pytest.fixture
def unregister() -> Iterator[None]:
    yield
    for name in ("x", "ok.name-1"):
        ttr_core.unregister_variant(name)


@pytest.mark.parametrize("plugin", [1, None, object(), "tolls"])
def test_register_variant_refuses_what_implements_no_hook(plugin: object, unregister: None) -> None:
    with pytest.raises(PluginError, match="implements no hook"):
        ttr_core.register_variant("x", plugin)
    assert "x" not in ttr_core.available_variants()


@pytest.mark.parametrize("name", ["x" * 100_000, "x" * 65, "a b", "-x", "tolls\n", "é"])
def test_register_variant_refuses_names_that_are_not_short_identifiers(
    name: str, unregister: None
) -> None:
    with pytest.raises(PluginError, match="variant name") as err:
        ttr_core.register_variant(name, NeedsFerries())
    assert len(str(err.value)) < 300


def test_register_variant_takes_names_like_the_installed_ones(unregister: None) -> None:
    for name in ttr_core.available_variants():
        assert ttr_core.hooks.manager.VARIANT_NAME.fullmatch(name), name
    ttr_core.register_variant("ok.name-1", NeedsFerries())
    assert "ok.name-1" in ttr_core.available_variants()
