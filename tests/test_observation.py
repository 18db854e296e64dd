"""The observation encoder (ttr_core.observation): pure Python, views only."""

from __future__ import annotations

import math
import random
import warnings

import attrs
import pytest

import ttr_core
from ttr_core.model.board import FrozenMap
from ttr_core.observation import (
    ObservationEncoder,
    ObservationError,
    encoder_for_view,
    observation_encoder,
)

CONFIGS = [
    ("newyork", 2, None),
    ("newyork", 4, []),
    ("nederland", 3, None),
    ("nederland", 2, ["tolls", "neutral"]),
    ("usa", 5, None),
    ("amsterdam", 2, None),
]


@pytest.fixture(autouse=True)
def _quiet_generated_tickets():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


def random_states(map_name, players, variants, seed, every=5):
    """States of a random game, every ``every`` actions, the last one included."""
    rng = random.Random(seed)
    state = ttr_core.new_game(map_name, players, seed=seed, variants=variants)
    count = 0
    while True:
        if count % every == 0 or state.is_over:
            yield state
        if state.is_over:
            return
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
        count += 1


@pytest.mark.parametrize(("map_name", "players", "variants"), CONFIGS)
def test_every_view_of_a_game_encodes_to_the_declared_size(map_name, players, variants) -> None:
    board = ttr_core.load_map(map_name)
    encoder = observation_encoder(board, players, variants)
    assert len(encoder.names) == len(set(encoder.names)) == encoder.size
    for state in random_states(map_name, players, variants, seed=players):
        for seat in range(players):
            vector = encoder.encode(ttr_core.player_view(state, seat))
            assert len(vector) == encoder.size
            assert all(isinstance(x, float) and math.isfinite(x) for x in vector)
            values = dict(zip(encoder.names, vector, strict=True))
            assert [values[f"seat[{i}]"] for i in range(players)] == [
                float(i == seat) for i in range(players)
            ]
            me = state.players[seat]
            assert values["seat[+0].cars"] == me.cars / board.rules.cars_per_player
            nxt = state.players[(seat + 1) % players]
            assert values["seat[+1].cars"] == nxt.cars / board.rules.cars_per_player
            assert values["is_over"] == float(state.is_over)
            # Roughly [0, 1]: only the turn counter, scores and variant counters
            # (scaled by their values at the start) may leave it.
            wide = {n for n, v in values.items() if not 0.0 <= v <= 1.0}
            assert all(
                n == "turn" or n.endswith(".score") or n.startswith("variant:") for n in wide
            ), wide


def test_routes_are_one_hot_by_owner_relative_to_the_viewer() -> None:
    states = list(random_states("newyork", 3, None, seed=4))
    state = states[len(states) // 2]
    encoder = observation_encoder(state.board, 3, state.rules.variants)
    for seat in range(3):
        view = ttr_core.player_view(state, seat)
        values = dict(zip(encoder.names, encoder.encode(view), strict=True))
        for route in state.board.routes:
            label = f"route[{route.id}:{route.a}-{route.b}:{route.color}]"
            owner = state.owner(route.id)
            got = [values[f"{label}.owner[+{k}]"] for k in range(3)]
            want = [0.0] * 3
            if owner is not None:
                want[(owner - seat) % 3] = 1.0
            assert got == want
            assert values[f"{label}.owner[other]"] == 0.0


def test_the_encoding_depends_only_on_the_view() -> None:
    for state in list(random_states("nederland", 3, None, seed=2, every=17))[:-1]:
        encoder = encoder_for_view(ttr_core.player_view(state, 0))
        for seat in range(3):
            view = ttr_core.player_view(state, seat)
            vector = encoder.encode(view)
            for k in range(3):
                world = ttr_core.determinize(view, seed=k)
                assert encoder.encode(ttr_core.player_view(world, seat)) == vector


def test_encoders_are_built_once_per_configuration() -> None:
    board = ttr_core.load_map("amsterdam")
    first = observation_encoder(board, 2, ["merchandise"])
    assert observation_encoder(board, 2, ("merchandise",)) is first
    assert observation_encoder(board, 2, None) is first  # the map's own variants
    assert observation_encoder(board, 3, ["merchandise"]) is not first
    assert observation_encoder(board, 2, []) is not first
    view = ttr_core.player_view(ttr_core.new_game("amsterdam", 2, seed=1), 1)
    assert encoder_for_view(view) is first
    assert isinstance(first, ObservationEncoder)


def test_variant_state_is_encoded_generically() -> None:
    board = ttr_core.load_map("nederland")
    encoder = observation_encoder(board, 2, ["tolls", "neutral"])
    variant = [n for n in encoder.names if n.startswith("variant:")]
    # Numbers and tuples of numbers, in sorted key order; the rest is skipped.
    assert variant == [
        "variant:neutral.cars",
        "variant:neutral.marker",
        "variant:neutral.round",
        "variant:tolls.holdings",
        "variant:tolls.loans[0]",
        "variant:tolls.loans[1]",
    ]
    assert encoder.skipped == ("neutral.revealed", "neutral.routes", "neutral.stopped")
    state = ttr_core.new_game("nederland", 2, seed=3, variants=["tolls", "neutral"])
    values = dict(zip(encoder.names, encoder.encode(ttr_core.player_view(state, 0)), strict=True))
    # Keys of one variant share a scale: the largest number among them at the start.
    assert values["variant:tolls.holdings"] == 1.0
    assert values["variant:neutral.cars"] == 1.0
    assert values["variant:tolls.loans[0]"] == 0.0
    merchandise = observation_encoder(ttr_core.load_map("amsterdam"), 2, ["merchandise"])
    assert merchandise.skipped == ()
    assert [n for n in merchandise.names if n.startswith("variant:")] == [
        "variant:merchandise.deck",
        "variant:merchandise.held[0]",
        "variant:merchandise.held[1]",
    ]


def test_variant_state_of_another_shape_is_an_error() -> None:
    state = ttr_core.new_game("nederland", 2, seed=3)
    view = ttr_core.player_view(state, 0)
    encoder = encoder_for_view(view)
    shown = dict(view.variants)
    for key, value in [
        ("tolls.loans", (0, 0, 0)),
        ("tolls.loans", 5),
        ("tolls.holdings", "thirty"),
        ("tolls.holdings", (30,)),
    ]:
        bad = attrs.evolve(view, variants=FrozenMap({**shown, key: value}))
        with pytest.raises(ObservationError, match=key):
            encoder.encode(bad)
    missing = attrs.evolve(view, variants=FrozenMap({"tolls.loans": (0, 0)}))
    with pytest.raises(ObservationError, match="missing"):
        encoder.encode(missing)
    # A key the first view did not have is not encoded, and is no error.
    extra = attrs.evolve(view, variants=FrozenMap({**shown, "tolls.new": 3}))
    assert encoder.encode(extra) == encoder.encode(view)
    assert issubclass(ObservationError, ttr_core.TtrError)


def test_a_view_of_another_configuration_is_refused() -> None:
    encoder = observation_encoder(ttr_core.load_map("newyork"), 2, ["attractions"])
    for other in [
        ttr_core.new_game("newyork", 3, seed=1),
        ttr_core.new_game("newyork", 2, seed=1, variants=[]),
        ttr_core.new_game("usa", 2, seed=1),
        # Other options: other scales (options are part of the configuration).
        ttr_core.new_game(
            "newyork", 2, seed=1, options={"attractions": {"points_per_attraction": 3}}
        ),
    ]:
        with pytest.raises(ObservationError):
            encoder.encode(ttr_core.player_view(other, 0))
    same = ttr_core.new_game("newyork", 2, seed=1)
    assert len(encoder.encode(ttr_core.player_view(same, 0))) == encoder.size
    with pytest.raises(ttr_core.ArgumentError):
        encoder.encode("a view")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "error"),
    [
        (("newyork", 2, ["attractions"]), ttr_core.ArgumentError),
        ((None, 2, ()), ttr_core.PlayerCountError),
        ((None, 7, ()), ttr_core.PlayerCountError),
        ((None, True, ()), ttr_core.ArgumentError),
        ((None, 2, "attractions"), ttr_core.ArgumentError),
        ((None, 2, ["teleporters"]), ttr_core.UnknownVariantError),
    ],
)
def test_bad_arguments(args, error) -> None:
    board, players, variants = args
    if board is None:
        board = ttr_core.load_map("newyork")
        if players == 2 and error is ttr_core.PlayerCountError:
            players = 1
    with pytest.raises(error):
        observation_encoder(board, players, variants)
