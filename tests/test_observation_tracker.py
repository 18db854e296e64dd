"""The observation tracker: a seat's vector kept up to date from a playout.

:class:`~ttr_core.observation.ObservationTracker` writes again only the
parts of the vector whose inputs changed. Each test here plays random games
through a :class:`~ttr_core.Playout` and compares, number for number, the
tracker's vector with ``encode_state`` of the playout's snapshot, which the
adapter tests check against the view's vector. The trackers are updated at
random moments (several actions apart, some seats rarely), follow one
playout after another (new games, clones, positions reached through the
pure API), and every built-in map and the variants that show state in the
view or own routes without a seat are played.
"""

from __future__ import annotations

import array
import random
import warnings
from collections.abc import Iterator, Sequence

import attrs
import pytest

import ttr_core
from ttr_core import Playout
from ttr_core.observation import (
    ObservationEncoder,
    ObservationError,
    ObservationTracker,
    observation_encoder,
)

#: (map, players, variants or None for the map's own, games).
CONFIGS: list[tuple[str, int, Sequence[str] | None, int]] = [
    ("newyork", 2, None, 150),
    ("newyork", 4, [], 40),
    ("usa", 3, None, 20),
    ("nederland", 4, ["tolls"], 20),
    ("nederland", 2, ["tolls", "neutral"], 30),  # a route owner that is no seat
    ("amsterdam", 2, ["merchandise"], 40),
    ("europe", 3, None, 12),  # stations, tunnels, ferries: variant state in the view
]
IDS = [f"{m}:{p}:{'+'.join(v) if v is not None else 'default'}" for m, p, v, _ in CONFIGS]


@pytest.fixture(autouse=True)
def _quiet() -> Iterator[None]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ttr_core.GeneratedTicketsWarning)
        yield


def encoder_of(play: Playout) -> ObservationEncoder:
    state = play.snapshot()
    rules = state.rules
    options = {variant: dict(values) for variant, values in rules.options}
    return observation_encoder(state.board, state.num_players, rules.variants, options)


def check(tracker: ObservationTracker, play: Playout, where: str) -> None:
    """The tracker, updated, holds exactly encode_state's vector."""
    tracker.update(play)
    wanted = tracker.encoder.encode_state(play.snapshot(), tracker.seat)
    if tracker.values != wanted:
        names = tracker.encoder.names
        wrong = [
            f"{names[i]}: {got} != {want}"
            for i, (got, want) in enumerate(zip(tracker.values, wanted, strict=True))
            if got != want
        ]
        raise AssertionError(f"{where}, seat {tracker.seat}: {wrong[:5]}")
    assert tracker.vector == array.array("f", wanted), where
    assert len(tracker.values) == tracker.encoder.size


@pytest.mark.parametrize(("map_name", "players", "variants", "games"), CONFIGS, ids=IDS)
def test_the_tracker_is_encode_state_at_every_update(
    map_name: str, players: int, variants: Sequence[str] | None, games: int
) -> None:
    rng = random.Random(17)
    board = ttr_core.load_map(map_name)
    first = Playout.new(board, players, seed=0, variants=variants)
    trackers = [encoder_of(first).tracker(seat) for seat in range(players)]
    updates = 0
    for game in range(games):
        play = Playout.new(board, players, seed=game, variants=variants)
        while True:
            for tracker in trackers:
                # Some seats every step, some rarely: jumps of several actions.
                if rng.random() < (0.9 if tracker.seat == 0 else 0.3):
                    check(tracker, play, f"game {game} ply {play.ply}")
                    updates += 1
            if play.is_over():
                break
            legal = play.legal_actions()
            action = legal[rng.randrange(len(legal))]
            roll = rng.random()
            if roll < 0.05:
                # An equal action that is not the listed object: the pure API carries it.
                play.apply(attrs.evolve(action))
            elif roll < 0.08:
                play = play.clone()  # another playout of the same position
                play.apply(action)
            else:
                play.apply(action)
    assert updates > 100


def test_an_update_without_a_move_changes_nothing() -> None:
    play = Playout.new("newyork", 2, seed=3)
    tracker = encoder_of(play).tracker(0)
    vector = tracker.vector
    assert tracker.update(play) is True  # the first update writes the position
    assert tracker.update(play) is False
    play.apply(play.legal_actions()[0])
    assert tracker.update(play) is True
    assert tracker.vector is vector  # changed in place
    assert tracker.update(play) is False


def test_a_claim_writes_the_claimed_routes_cell() -> None:
    play = Playout.new("newyork", 2, seed=5)
    rng = random.Random(5)
    encoder = encoder_of(play)
    tracker = encoder.tracker(1)
    while not play.is_over():
        tracker.update(play)
        before = list(tracker.values)
        legal = play.legal_actions()
        claims = [a for a in legal if type(a) is ttr_core.ClaimRoute]
        action = claims[0] if claims else rng.choice(legal)
        play.apply(action)
        tracker.update(play)
        if type(action) is ttr_core.ClaimRoute:
            cells = {
                encoder.names[i]
                for i, (old, new) in enumerate(zip(before, tracker.values, strict=True))
                if old != new and encoder.names[i].startswith("route[")
            }
            column = (action.player - tracker.seat) % 2
            assert cells == {
                name
                for name in encoder.names
                if name.startswith(f"route[{action.route}:") and name.endswith(f"[+{column}]")
            }
            return
    raise AssertionError("no claim was made")


def test_a_playout_of_another_configuration_is_refused() -> None:
    play = Playout.new("newyork", 2, seed=1)
    tracker = encoder_of(play).tracker(0)
    check(tracker, play, "before")
    for other in (
        Playout.new("newyork", 3, seed=1),
        Playout.new("newyork", 2, seed=1, variants=[]),
        Playout.new("amsterdam", 2, seed=1),
    ):
        with pytest.raises(ObservationError):
            tracker.update(other)
        # The tracker goes on with its own configuration, exactly.
        check(tracker, play, "after a refusal")
        play.apply(play.legal_actions()[-1])
        check(tracker, play, "after a move")


def test_bad_arguments_are_typed_errors() -> None:
    play = Playout.new("newyork", 2, seed=1)
    encoder = encoder_of(play)
    for seat in (2, -1, True, 0.0, "0", None):
        with pytest.raises(ttr_core.ArgumentError, match="seat must be a seat from 0 to 1"):
            encoder.tracker(seat)  # type: ignore[arg-type]
    with pytest.raises(ttr_core.ArgumentError, match="encoder must be"):
        ObservationTracker("encoder", 0)  # type: ignore[arg-type]
    tracker = encoder.tracker(0)
    for junk in (play.snapshot(), None, "play"):
        with pytest.raises(ttr_core.ArgumentError, match=r"play must be a ttr_core\.Playout"):
            tracker.update(junk)  # type: ignore[arg-type]


class _ShapeChanges:
    """A variant whose view value is a number, then a tuple for a while (a
    shape the encoder refuses), then a number again."""

    @ttr_core.hookimpl
    def ttr_player_view(self, state: ttr_core.GameState, player: int) -> dict[str, object]:
        return {"tracker_shape.x": (1, 2) if 3 <= state.ply < 6 else state.ply}


def test_a_part_that_failed_is_written_again_at_the_next_update() -> None:
    ttr_core.register_variant("tracker_shape", _ShapeChanges())
    try:
        play = Playout.new("newyork", 2, seed=3, variants=["tracker_shape"])
        tracker = encoder_of(play).tracker(0)
        while play.ply < 3:
            check(tracker, play, f"ply {play.ply}")
            play.apply(play.legal_actions()[0])
        for _ in range(2):  # refused each time, as encode_state refuses it
            with pytest.raises(ObservationError, match=r"tracker_shape\.x"):
                tracker.update(play)
            with pytest.raises(ObservationError, match=r"tracker_shape\.x"):
                tracker.encoder.encode_state(play.snapshot(), 0)
        while play.ply < 8:
            play.apply(play.legal_actions()[0])
            if play.ply >= 6:
                check(tracker, play, f"ply {play.ply}, the shape right again")
    finally:
        ttr_core.unregister_variant("tracker_shape")


def test_a_number_changed_by_its_caller_is_left_to_the_caller() -> None:
    # values and vector are read only (the docstring says so); the tracker
    # writes numbers only where its inputs changed.
    play = Playout.new("newyork", 2, seed=3)
    tracker = encoder_of(play).tracker(0)
    tracker.update(play)
    kept = list(tracker.values)
    assert tracker.update(play) is False
    assert tracker.values == kept


class _AfterClaimBreaks:
    """A variant whose after-claim hook fails: the playout becomes unusable."""

    @ttr_core.hookimpl
    def ttr_after_claim(
        self, state: ttr_core.GameState, player: int, route: int
    ) -> ttr_core.GameState | None:
        raise RuntimeError("the variant broke")


def test_an_unusable_playout_raises_what_it_raises() -> None:
    ttr_core.register_variant("tracker_breaks", _AfterClaimBreaks())
    try:
        play = Playout.new("newyork", 2, seed=2, variants=["tracker_breaks"])
        tracker = encoder_of(play).tracker(0)
        rng = random.Random(2)
        with pytest.raises(ttr_core.PluginError):
            while True:
                tracker.update(play)
                legal = play.legal_actions()
                claims = [a for a in legal if type(a) is ttr_core.ClaimRoute]
                play.apply(claims[0] if claims else rng.choice(legal))
        with pytest.raises(ttr_core.PluginError, match="unusable"):
            tracker.update(play)
    finally:
        ttr_core.unregister_variant("tracker_breaks")
