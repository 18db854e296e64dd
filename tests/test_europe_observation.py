"""Europe's mechanics reach the observation tensors (docs/reference/observation.md):
the stations and a waiting tunnel are shown in every view as numbers too
(``stations.at``, ``tunnels.asked``, ``tunnels.turned_up``), which the generic
encoder reads; the records themselves (``Station``, ``TunnelWait``) it skips."""

from __future__ import annotations

import random

import numpy as np
from ttr_core_plugins import stations as st
from ttr_core_plugins import tunnels as tn

import ttr_core
from ttr_core.observation import ObservationEncoder, observation_encoder

VARIANTS = ("tunnels", "ferries", "stations", "long_tickets", "longest_route")


def _features(
    encoder: ObservationEncoder, view: ttr_core.PlayerView, prefix: str
) -> dict[str, float]:
    values = encoder.encode(view)
    names = encoder.names
    return {n: float(v) for n, v in zip(names, values, strict=True) if n.startswith(prefix)}


def test_the_encoder_reads_the_stations_and_the_waiting_tunnel() -> None:
    encoder = observation_encoder(ttr_core.load_map("europe"), 3, VARIANTS)
    assert set(encoder.skipped) == {st.NAME, tn.VIEW}
    assert f"variant:{st.AT}[0]" in encoder.names and f"variant:{tn.ASKED}" in encoder.names
    rng = random.Random(5)
    state = ttr_core.new_game("europe", 3, seed=5)
    seen_station = seen_wait = False
    while not state.is_over and not (seen_station and seen_wait):
        for seat in range(3):
            view = ttr_core.player_view(state, seat)
            at = _features(encoder, view, f"variant:{st.AT}[")
            expected = [0] * len(state.board.locations)
            for station in st.stations(state):
                expected[station.location] = 1 + (station.owner - seat) % 3
            assert list(at.values()) == expected
            wait = tn.waiting(state)
            asked = _features(encoder, view, f"variant:{tn.ASKED}")[f"variant:{tn.ASKED}"]
            turned = sum(_features(encoder, view, f"variant:{tn.TURNED_UP}[").values())
            assert asked == (0 if wait is None else wait.extra)
            assert turned == (0 if wait is None else len(wait.revealed))
            seen_station |= any(v == 1 for v in at.values())
            seen_wait |= wait is not None and turned > 0
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    assert seen_station and seen_wait


def test_the_numbers_agree_with_the_records_in_a_view_read_back() -> None:
    state = ttr_core.new_game("europe", 2, seed=1)
    rng = random.Random(1)
    for _ in range(120):
        state = ttr_core.apply(state, rng.choice(ttr_core.legal_actions(state)))
    view = ttr_core.player_view(state, 1)
    back = ttr_core.from_json(ttr_core.to_json(view), ttr_core.PlayerView)
    assert back == view
    assert ttr_core.player_view(ttr_core.determinize(view, 3), 1) == view
    assert np.asarray(view.variants[st.AT]).shape == (len(state.board.locations),)
